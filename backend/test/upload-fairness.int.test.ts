// One user sending uploads very slowly must not turn everyone else's uploads away (issue 20): the
// body is received before a parse slot is taken, and each user may have only a few uploads in
// progress at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { multipartBody } from './helpers/multipart.ts';

const CSV = 'isbn\n9780306406157\n';

describe.each(ENGINES)('uploads sent slowly on %s', (engine) => {
  let t: TestApp;
  let base: string;
  const trickling: http.ClientRequest[] = [];

  beforeAll(async () => {
    // One parse slot and no waiting in line: a held slot shows at once as a 429.
    t = await startTestApp(engine, {
      env: { UPLOAD_MAX_CONCURRENT_PARSES: '1', UPLOAD_PARSE_QUEUE_WAIT_MS: '0', UPLOAD_MAX_PER_USER: '2' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const req of trickling) req.destroy();
    await t.close();
  });

  const body = (name: string) => multipartBody({ config: JSON.stringify({ name, abe_books: true }) }, { name: `${name}.csv`, data: CSV });

  /** Sends the headers and the first bytes of an upload, then nothing more (until destroyed). */
  function startTrickle(token: string): http.ClientRequest {
    const b = body('slow');
    const payload = Buffer.from(b.payload);
    const req = http.request(`${base}/api/v1/jobs/upload-file`, {
      method: 'POST',
      headers: { ...bearer(token), ...b.headers, 'content-length': String(payload.length) },
    });
    req.on('error', () => {});
    req.write(payload.subarray(0, 40));
    trickling.push(req);
    return req;
  }

  const upload = async (token: string, name: string) => {
    const b = body(name);
    const res = await fetch(`${base}/api/v1/jobs/upload-file`, {
      method: 'POST',
      headers: { ...bearer(token), ...b.headers },
      body: b.payload,
    });
    return { status: res.status, json: (await res.json()) as { detail?: string }, retryAfter: res.headers.get('retry-after') };
  };

  it("two trickling uploads hold no parse slot: another user's upload goes through; the trickler's third is refused", async () => {
    const slow = await createUser(t, 'trickler@example.com');
    const other = await createUser(t, 'patient@example.com');
    startTrickle(slow.token);
    startTrickle(slow.token);
    // Let the server start both requests' handlers.
    await new Promise((r) => setTimeout(r, 300));

    const theirs = await upload(other.token, 'theirs');
    expect(theirs.status, JSON.stringify(theirs.json)).toBe(200);

    const third = await upload(slow.token, 'third');
    expect(third.status).toBe(429);
    expect(third.json).toEqual({ detail: 'You already have 2 uploads in progress. Please try again when one has finished.' });
    expect(third.retryAfter).toBe('5');
  });
});
