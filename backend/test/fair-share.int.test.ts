// One user's flood of requests must not queue everyone else behind it (issue 20): each signed-in user
// has a few requests running per process; the rest wait in the user's own line, and past that line
// are refused. Live streams, downloads and uploads have limits of their own and take no turn.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';

describe.each(ENGINES)("one user's requests take turns on %s", (engine) => {
  let t: TestApp;
  let base: string;
  const held: http.ClientRequest[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine, { env: { REQUEST_MAX_RUNNING_PER_USER: '2', REQUEST_MAX_WAITING_PER_USER: '1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const req of held) req.destroy();
    await t.close();
  });

  /** A profile update whose body never comes: it holds its turn until the client gives up. */
  function holdTurn(token: string): http.ClientRequest {
    const req = http.request(`${base}/api/v1/users/me`, {
      method: 'PATCH',
      headers: { ...bearer(token), 'content-type': 'application/json', 'content-length': '100' },
    });
    req.on('error', () => {});
    req.write('{');
    held.push(req);
    return req;
  }

  const me = (token: string) =>
    fetch(`${base}/api/v1/users/me`, { headers: bearer(token) }).then(async (res) => ({
      status: res.status,
      json: (await res.json()) as { detail?: string; email?: string },
      retryAfter: res.headers.get('retry-after'),
    }));
  const pending = async <T>(p: Promise<T>) =>
    Promise.race([p.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 300))]);

  it("past its running requests a user's next waits its turn, the one after is refused, and others are served meanwhile", async () => {
    const flooder = await createUser(t, 'flooder@example.com');
    const other = await createUser(t, 'bystander-turns@example.com');
    const [first, second] = [holdTurn(flooder.token), holdTurn(flooder.token)];
    await new Promise((r) => setTimeout(r, 200));

    const waiting = me(flooder.token);
    expect(await pending(waiting)).toBe(true);
    const refused = await me(flooder.token);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ detail: 'Too many requests at once. Please wait a moment and try again.' });
    expect(refused.retryAfter).toBe('1');

    const theirs = await me(other.token);
    expect(theirs.status).toBe(200);
    // A live stream takes no turn: it opens while the user's turns are all held.
    const stream = await fetch(`${base}/api/v1/jobs/events`, { headers: bearer(flooder.token) });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();

    // A client that gives up hands its turn on.
    first.destroy();
    const served = await waiting;
    expect(served.status).toBe(200);
    expect(served.json.email).toBe('flooder@example.com');
    second.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const [a, b] = await Promise.all([me(flooder.token), me(flooder.token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
  });
});
