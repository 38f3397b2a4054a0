// Test support: a tiny HTTP server that answers with whatever reply a test scripted, and records
// what the client sent. Used by the client tests; the sandbox is the realistic stand-in.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Text is sent as UTF-8; a Buffer as it is (e.g. an ISO-8859-1 answer). */
  body?: string | Buffer;
  /** Never answer: the client has to give up. */
  hang?: boolean;
}

export interface SeenRequest {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
}

export interface FixtureServer {
  url: string;
  requests: SeenRequest[];
  reply(next: Reply): void;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  let next: Reply = { status: 200, body: '' };
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: new URL(req.url ?? '/', 'http://fixture'), headers: req.headers });
    if (next.hang) return;
    res.writeHead(next.status ?? 200, next.headers ?? {});
    res.end(next.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(r) {
      next = r;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
