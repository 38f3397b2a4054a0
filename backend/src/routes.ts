// Product route modules beyond accounts (jobs, marketplaces), registered under /api/v1.
import { auditRoutes } from './audit/routes.ts';
import { bookRoutes } from './books/routes.ts';
import { comparisonRoutes } from './comparison/routes.ts';
import type { App, AppContext } from './core/context.ts';
import { decisionRoutes } from './decisions/routes.ts';
import { jobRoutes } from './jobs/routes.ts';
import { jobControlRoutes } from './jobs/control-routes.ts';
import { jobScheduleRoutes } from './jobs/schedule-routes.ts';
import { lookupRoutes } from './lookups/routes.ts';
import { pasteJobRoutes } from './jobs/paste-routes.ts';
import { liveRoutes } from './live/routes.ts';
import { ruleSetRoutes } from './rules/routes.ts';
import { feeRoutes } from './fees/routes.ts';
import { scanRoutes } from './scan/routes.ts';
import { watchRoutes } from './watches/routes.ts';

export const productRoutes: ((app: App, ctx: AppContext) => void)[] = [
  jobRoutes,
  lookupRoutes,
  pasteJobRoutes,
  comparisonRoutes,
  jobControlRoutes,
  jobScheduleRoutes,
  decisionRoutes,
  liveRoutes,
  ruleSetRoutes,
  feeRoutes,
  bookRoutes,
  auditRoutes,
  scanRoutes,
  watchRoutes,
];
