import { defineConfig } from '@hey-api/openapi-ts';

/**
 * Lists read with POST (their filters travel in the body): queries, not mutations, so the TanStack
 * Query plugin gives them `xxxOptions()` and `xxxQueryKey()` like every GET.
 */
const LISTS_READ_BY_POST = new Set(['listJobs', 'jobComparison', 'priceLookups', 'listAuditEvents']);

// The backend writes openapi.json (`npm run openapi -w backend`); `npm run generate-client`
// turns it into src/client, and `npm run check-client` fails when src/client is stale.
// OPENAPI_TS_OUTPUT lets the check generate into a temporary folder instead.
export default defineConfig({
  input: './openapi.json',
  output: { path: process.env.OPENAPI_TS_OUTPUT ?? './src/client' },
  plugins: [
    {
      name: '@hey-api/client-fetch',
      // Relative paths: the API is served from the same origin (and proxied by Vite in dev).
      baseUrl: false,
      throwOnError: true,
      // Credentials, bearer token and error shaping live in src/lib/api-config.ts. Since 0.99 the path
      // is resolved from the working directory (frontend/) and imported relative to the output folder.
      runtimeConfigPath: './src/lib/api-config',
    },
    '@hey-api/sdk',
    '@hey-api/typescript',
    {
      // Every query's key and fetch come from here (xxxOptions, xxxQueryKey): none is typed by hand
      // (src/lib/query-keys.test.ts). Invalidations pass the same keys; a key with fewer fields
      // matches every query it is a part of (TanStack's partial matching).
      name: '@tanstack/react-query',
      '~hooks': {
        operations: {
          isQuery: (op) => (LISTS_READ_BY_POST.has(op.id) ? true : undefined),
          isMutation: (op) => (LISTS_READ_BY_POST.has(op.id) ? false : undefined),
        },
      },
    },
  ],
});
