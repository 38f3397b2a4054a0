// Product route modules beyond accounts (jobs, marketplaces), registered under /api/v1.
import type { App, AppContext } from './core/context.ts';
import { jobRoutes } from './jobs/routes.ts';
import { lookupRoutes } from './lookups/routes.ts';
import { liveRoutes } from './live/routes.ts';

export const productRoutes: ((app: App, ctx: AppContext) => void)[] = [jobRoutes, lookupRoutes, liveRoutes];
