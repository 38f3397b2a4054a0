// `npm run worker` has no HTTP server of its own: with WORKER_METRICS_PORT set it serves its
// registry at GET /metrics on that port (METRICS_TOKEN, when set, is required as on the API).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PoolUse } from '../db/client.ts';
import { metricsAccess } from './access.ts';
import { METRICS_CONTENT_TYPE } from './instruments.ts';
import { scrapeProcess } from './scrape.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(opts: {
  host: string;
  port: number;
  token: string | undefined;
  poolUse: () => PoolUse;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const json = (status: number, detail: string) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail }));
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return json(404, 'Not Found');
    // A port of its own is private enough by itself; a token, when configured, is asked for here too.
    const access = opts.token ? metricsAccess(opts.token, req.headers.authorization) : ({ ok: true } as const);
    if (!access.ok) return json(access.status, access.detail);
    scrapeProcess(opts.poolUse).then(
      (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
      () => json(500, 'Collecting metrics failed'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
