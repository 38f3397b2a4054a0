// Health check and what the UI needs to know about the deployment.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { App, AppContext } from '../core/context.ts';

const AppInfo = z.object({ prices_simulated: z.boolean() }).meta({ id: 'AppInfo' });

export function utilRoutes(app: App, ctx: AppContext): void {
  app.get('/utils/health-check/', {
    schema: { operationId: 'healthCheck', tags: ['utils'], response: { 200: z.boolean() } },
    handler: async () => {
      await ctx.db.execute(sql`SELECT 1`);
      return true;
    },
  });

  app.get('/utils/app-info/', {
    schema: { operationId: 'readAppInfo', tags: ['utils'], response: { 200: AppInfo } },
    handler: async () => ({ prices_simulated: ctx.pricesSimulated }),
  });
}
