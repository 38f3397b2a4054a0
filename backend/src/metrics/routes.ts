// GET /metrics: Prometheus text for this process, behind METRICS_TOKEN (its own bearer token, not
// a user's: listed in public-routes.ts so the user guard leaves it to metricsAccess).
import type { App, AppContext } from '../core/context.ts';
import { metricsAccess } from './access.ts';
import { METRICS_CONTENT_TYPE } from './instruments.ts';
import { scrape } from './scrape.ts';

export function metricsRoutes(app: App, ctx: AppContext): void {
  app.get('/metrics', {
    schema: { hide: true },
    handler: async (req, reply) => {
      const access = metricsAccess(ctx.config.METRICS_TOKEN, req.headers.authorization);
      if (!access.ok) {
        if (access.status === 401) reply.header('www-authenticate', 'Bearer');
        return reply.code(access.status).send({ detail: access.detail });
      }
      return reply.type(METRICS_CONTENT_TYPE).send(await scrape(ctx.db, ctx.poolUse));
    },
  });
}
