import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext, lazyRouteComponent } from '@tanstack/react-router';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  // The root route is not code-split by the router plugin; the 404 page loads when needed.
  notFoundComponent: lazyRouteComponent(() => import('../components/common/NotFound'), 'NotFound'),
});
