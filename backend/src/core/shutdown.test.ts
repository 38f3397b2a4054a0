// closeApp on a real Fastify server and a real keep-alive client: the request in flight when the
// stop begins is answered, and the stop ends once it is, not at the keep-alive timeout.
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { closeApp } from './shutdown.ts';

const agents: Agent[] = [];
afterEach(() => {
  for (const a of agents.splice(0)) a.destroy();
});

function get(port: number, agent: Agent, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('closeApp', () => {
  it('answers the request in flight, then ends though its client keeps the connection alive', async () => {
    // A keep-alive timeout far past the test's own: a stop that waited for it would fail the test.
    const app = Fastify({ keepAliveTimeout: 10 * 60_000 });
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let arrived!: () => void;
    const inHandler = new Promise<void>((r) => {
      arrived = r;
    });
    app.get('/slow', async () => {
      arrived();
      await released;
      return { answered: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    agents.push(agent);

    const answer = get(port, agent, '/slow');
    await inHandler;
    let closed = false;
    const closing = closeApp(app, 10).then(() => {
      closed = true;
    });
    // Still answering: the stop waits for it.
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    release();
    expect(await answer).toEqual({ status: 200, body: '{"answered":true}' });
    await closing;
    expect(closed).toBe(true);
  });
});
