// Navigation defaults (docs/requirements.md, Client defaults).
import { createRouter, parseSearchWith, stringifySearchWith } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { routeTree } from './routeTree.gen';

const FIVE_MINUTES = 5 * 60 * 1000;

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPreloadDelay: 50,
    defaultPendingMs: 1000,
    defaultPendingMinMs: 500,
    defaultGcTime: FIVE_MINUTES,
    defaultPreloadStaleTime: 30_000,
    scrollRestoration: true,
    // Search values are JSON once: filters read `filters=[{"field":…}]`, not a JSON string quoted
    // again (the default re-quotes strings that parse as JSON). Old quoted URLs still parse: to a
    // string, which decodeFilters reads as the JSON text it is.
    parseSearch: parseSearchWith(JSON.parse),
    stringifySearch: stringifySearchWith(JSON.stringify),
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
