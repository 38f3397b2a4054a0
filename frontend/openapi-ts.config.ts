import { defineConfig } from '@hey-api/openapi-ts';

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
  ],
});
