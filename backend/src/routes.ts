// Product route modules beyond accounts (jobs, marketplaces), registered under /api/v1.
import type { App, AppContext } from './core/context.ts';
import { jobRoutes } from './jobs/routes.ts';
import { jobControlRoutes } from './jobs/control-routes.ts';
import { lookupRoutes } from './lookups/routes.ts';

export const productRoutes: ((app: App, ctx: AppContext) => void)[] = [jobRoutes, lookupRoutes, jobControlRoutes];
