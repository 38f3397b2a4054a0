// Every HTTP answer's duration, labelled by the route's pattern (`/api/v1/jobs/:id`, never the raw
// URL, so ids and query strings cannot blow up the series) and its status code.
import type { App } from '../core/context.ts';
import { httpRequestDuration } from './instruments.ts';

export function installRequestTiming(app: App): void {
  app.addHook('onResponse', async (req, reply) => {
    httpRequestDuration.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}
