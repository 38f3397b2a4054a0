// The last hostile inputs, found by trying as an attacker would: the last representable day in a date
// filter, password spraying from one address and a live stream outliving the session it was opened
// with on both databases; JSON nested thousands deep, bodies past the limit sent to any route and
// over-long path parameters, which the HTTP layer turns away before any database work, on one.
import net from 'node:net';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  bearer,
  changeOwnPassword,
  createUser,
  login,
  postLoginForm,
  secondApiProcess,
  startTestApp,
  type TestApp,
} from './helpers/app.ts';
import { ENGINES, onOneEngine } from './helpers/databases.ts';
import { seedComparisonJob, seedLookup } from './helpers/seed-lookups.ts';
import { ALL_SOURCES, postJobUpload } from './helpers/multipart.ts';
import { openEventStream, type EventStream } from './helpers/sse.ts';
import { userByEmail } from '../src/users/repository.ts';

const LAST_DAY = '9999-12-31';
const dateFilter = (operator: string, value = LAST_DAY) => ({ filters: [{ field: 'created_at', operator, value }] });

/** JSON `depth` levels deep: arrays, or objects under one key. */
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"title":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

interface RawAnswer {
  status: number;
  body: string;
  /** The socket error the client met, if any (EPIPE/ECONNRESET: the answer was dropped). */
  error?: string;
}

/**
 * Sends a request over a plain socket as an ordinary client does: headers, then the body in 16 KiB
 * pieces as the socket takes them, then reads whatever answer arrives until the server closes.
 */
function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (d) => received.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      const text = Buffer.concat(received).toString();
      const status = Number(text.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), error });
    });
    const head = Object.entries({ host: 'localhost', connection: 'close', 'content-length': String(body.length), ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
    let offset = 0;
    const next = () => {
      while (offset < body.length && !socket.destroyed) {
        const more = socket.write(body.subarray(offset, offset + 16_384));
        offset += 16_384;
        if (!more) return void socket.once('drain', () => setTimeout(next, 1));
      }
    };
    next();
  });
}

describe.each(ENGINES)('hostile inputs on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let base: string;
  let adminToken: string;
  const streams: EventStream[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine, { env: { LIVE_UPDATE_INTERVAL_MS: '50', LIVE_HEARTBEAT_MS: '200' } });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
    adminToken = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });
  afterAll(async () => {
    t?.app.server.closeAllConnections();
    await t?.close();
  });

  describe('a date filter on the last day a date may name', () => {
    let jobId: number;
    beforeAll(async () => {
      const admin = (await userByEmail(t.ctx.db, ADMIN.email))!;
      jobId = await seedComparisonJob(
        t.ctx.db,
        admin.id,
        MARKETPLACE_LIST.map((m) => m.id),
      );
      for (const m of MARKETPLACE_LIST) await seedLookup(t.ctx.db, m.table, jobId, '9780306406157', {});
    });

    it.each(MARKETPLACE_LIST.map((m) => m.slug))('answers on the %s lookups list and its CSV export', async (slug) => {
      const list = (body: object) =>
        t.app.inject({ method: 'POST', url: `/api/v1/${slug}/price-lookups`, headers: bearer(adminToken), payload: body });
      const upTo = await list(dateFilter('lte'));
      expect(upTo.statusCode, upTo.body).toBe(200);
      expect(upTo.json().data.map((r: { isbn: string }) => r.isbn)).toContain('9780306406157');
      for (const [operator, count] of [
        ['gt', 0],
        ['equals', 0],
        ['gte', 0],
        ['lt', 1],
      ] as const) {
        const res = await list(dateFilter(operator));
        expect(res.statusCode, `${operator}: ${res.body}`).toBe(200);
        expect(res.json().count, operator).toBe(count);
      }
      const csv = await t.app.inject({
        method: 'POST',
        url: `/api/v1/${slug}/price-lookups/download-csv`,
        headers: bearer(adminToken),
        payload: dateFilter('lte'),
      });
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body).toContain('9780306406157');
      const none = await t.app.inject({
        method: 'POST',
        url: `/api/v1/${slug}/price-lookups/download-csv`,
        headers: bearer(adminToken),
        payload: dateFilter('gt'),
      });
      expect(none.statusCode, none.body).toBe(200);
      expect(none.body).not.toContain('9780306406157');
    });

    it('answers on the jobs list', async () => {
      for (const [operator, includes] of [
        ['lte', true],
        ['gt', false],
        ['equals', false],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/jobs/jobs',
          headers: bearer(adminToken),
          payload: dateFilter(operator),
        });
        expect(res.statusCode, `${operator}: ${res.body}`).toBe(200);
        expect(
          res.json().data.some((j: { id: number }) => j.id === jobId),
          operator,
        ).toBe(includes);
      }
    });
  });

  // The HTTP layer alone, before any engine-specific code: on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    describe('JSON nested past 64 levels', () => {
      it.each([
        ['arrays', nestedArrays(10_000)],
        ['objects', nestedObjects(10_000)],
        ['arrays, just past the limit', nestedArrays(65)],
      ])('is refused with 400 {detail}: %s', async (_, payload) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/items/',
          headers: { ...bearer(adminToken), 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({ detail: 'The JSON body is nested too deeply (at most 64 levels)' });
      });

      it('64 levels are read as usual (then checked by the schema: a 422 naming the field)', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/items/',
          headers: { ...bearer(adminToken), 'content-type': 'application/json' },
          payload: nestedObjects(63),
        });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().detail[0].loc).toEqual(['body', 'title']);
      });

      it('a job upload’s JSON config field nested 30,000 deep is a 422 naming it', async () => {
        const res = await postJobUpload(t.app, adminToken, nestedArrays(30_000), { name: 'isbns.csv', data: 'ISBN\n9780306406157\n' });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'config'], msg: 'config is nested too deeply (at most 64 levels)' });
      });
    }),
  );

  // The HTTP layer alone, before any engine-specific code: on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    describe('a body past the limit', () => {
      const big = Buffer.from(JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }));
      const json = { 'content-type': 'application/json' };

      it.each([
        ['a route that takes JSON', '/api/v1/items/', true, 413],
        ['an address no route has', '/api/v1/no-such-route', true, 413],
        ['a route, without a valid token', '/api/v1/items/', false, 403],
      ])('is answered, and the client receives the answer: %s', async (_, path, signedIn, status) => {
        const headers = { ...json, authorization: `Bearer ${signedIn ? adminToken : 'not-a-token'}` };
        const answer = await rawRequest(port, 'POST', path, headers, big);
        expect(answer.status, `${answer.error ?? ''} ${answer.body}`).toBe(status);
        expect(JSON.parse(answer.body)).toHaveProperty('detail');
      });
    }),
  );

  // The HTTP layer alone, before any engine-specific code: on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    describe('a body trickled a byte at a time', () => {
      const LOGIN_HEAD =
        'POST /api/v1/login/access-token HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/x-www-form-urlencoded\r\n';
      let slow: TestApp;
      let slowPort: number;
      beforeAll(async () => {
        slow = await startTestApp(engine, {
          env: {
            REQUEST_BODY_IDLE_TIMEOUT_MS: '300',
            REQUEST_BODY_TIMEOUT_MS: '1500',
            UPLOAD_MAX_CONCURRENT_PARSES: '1',
            UPLOAD_PARSE_QUEUE_WAIT_MS: '0',
          },
        });
        await slow.app.listen({ host: '127.0.0.1', port: 0 });
        slowPort = (slow.app.server.address() as net.AddressInfo).port;
      });
      afterAll(async () => {
        slow?.app.server.closeAllConnections();
        await slow?.close();
      });

      /** Opens a login (no token needed) announcing `length` bytes and sends one every `everyMs` until the server answers. */
      const trickle = (length: number, everyMs: number, head = LOGIN_HEAD) =>
        new Promise<RawAnswer>((resolve) => {
          const socket = net.connect(slowPort, '127.0.0.1');
          const received: Buffer[] = [];
          socket.on('data', (d) => received.push(d));
          socket.on('error', () => {});
          const timer = setInterval(() => socket.writable && socket.write('a'), everyMs);
          socket.on('close', () => {
            clearInterval(timer);
            const text = Buffer.concat(received).toString();
            resolve({ status: Number(text.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
          });
          socket.write(`${head}content-length: ${length}\r\n\r\n`);
        });

      it('ends a body that stops arriving: 408 {detail}', async () => {
        const answer = await trickle(100, 60_000);
        expect(answer.status).toBe(408);
        expect(JSON.parse(answer.body)).toEqual({ detail: 'The request body took too long to arrive' });
      });

      it('ends a body that keeps arriving too slowly: 408 {detail}', async () => {
        const answer = await trickle(1_000_000, 50);
        expect(answer.status).toBe(408);
        expect(JSON.parse(answer.body)).toEqual({ detail: 'The request body took too long to arrive' });
      });

      it('an upload that stops arriving is ended and frees its place for the next upload', async () => {
        const token = await login(slow.app, ADMIN.email, ADMIN.password);
        const head = `POST /api/v1/jobs/upload-file HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${token}\r\ncontent-type: multipart/form-data; boundary=x\r\n`;
        const answer = await trickle(100_000, 60_000, head);
        expect(answer.status).toBe(408);
        // The ended upload gives its place back as its reader sees the connection close.
        const again = async () =>
          (await postJobUpload(slow.app, token, { name: 'after', ...ALL_SOURCES }, { name: 'isbns.csv', data: 'ISBN\n9780306406157\n' }))
            .statusCode;
        await expect.poll(again, { timeout: 5000 }).toBe(200);
      });

      it('a body that arrives in time is served as usual', async () => {
        const res = await postLoginForm(slow.app, { username: ADMIN.email, password: ADMIN.password });
        expect(res.statusCode).toBe(200);
      });
    }),
  );

  // The HTTP layer alone, before any engine-specific code: on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    describe('an over-long path parameter', () => {
      it('answers 414 {detail} without quoting the address back', async () => {
        const long = `evil${'x'.repeat(300)}`;
        const res = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${long}`, headers: bearer(adminToken) });
        expect(res.statusCode).toBe(414);
        expect(res.json()).toEqual({ detail: 'The address is too long' });
        expect(res.body).not.toContain('evil');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      });

      it('a malformed escape in the path answers 400 {detail} without quoting it back', async () => {
        const res = await t.app.inject({ method: 'GET', url: '/api/v1/jobs/evil%E0%A4%A', headers: bearer(adminToken) });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toHaveProperty('detail');
        expect(res.body).not.toContain('evil');
      });
    }),
  );

  describe('password spraying', () => {
    const sprayer = '10.66.0.1';

    it('one address trying a password on 15 accounts is slowed; the owners elsewhere are not', async () => {
      const accounts = Array.from({ length: 15 }, (_, i) => `sprayed-${i}-${engine}@example.com`);
      for (const email of accounts.slice(0, 2)) await createUser(t, email, 'owner-password-1');
      const answers = [];
      for (const email of accounts)
        answers.push(await postLoginForm(t.app, { username: email, password: 'Summer2026!' }, { from: sprayer }));
      const slowed = answers.filter((a) => a.statusCode === 429);
      expect(slowed.length).toBeGreaterThan(0);
      expect(slowed[0]?.json()).toEqual({ detail: 'Too many login attempts. Please wait a moment and try again.' });
      expect(Number(slowed[0]?.headers['retry-after'])).toBeGreaterThan(0);
      // The owner, signing in from elsewhere, is not slowed by it.
      expect((await postLoginForm(t.app, { username: accounts[1]!, password: 'owner-password-1' }, { from: '10.66.0.2' })).statusCode).toBe(
        200,
      );
    });

    it('holds across API processes on one database', async () => {
      const other = await secondApiProcess(t);
      try {
        const from = '10.66.0.3';
        const codes: number[] = [];
        for (let i = 0; i < 15; i++) {
          const app = i % 2 ? other : t.app;
          codes.push((await postLoginForm(app, { username: `spread-${i}@example.com`, password: 'Autumn2026!' }, { from })).statusCode);
        }
        // Every failure counts, whichever process answered it; the next attempt waits.
        const max = t.ctx.config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS;
        expect(max).toBeLessThan(15);
        expect(codes.slice(0, max).every((c) => c === 400)).toBe(true);
        expect(codes[max]).toBe(429);
      } finally {
        await other.close();
      }
    });
  });

  describe('a live stream whose session ends', () => {
    const EVENTS = '/api/v1/jobs/events';
    const liveStream = async (token: string) => {
      const s = await openEventStream(`${base}${EVENTS}`, token);
      streams.push(s);
      expect(s.status).toBe(200);
      await s.waitFor((e) => e.event === 'ready');
      return s;
    };
    /** Resolves true once the server ended the stream, false if it is still open after `ms`. */
    const endsWithin = (s: EventStream, ms: number) =>
      Promise.race([s.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

    it('ends when the password changes', async () => {
      const u = await createUser(t, `stream-pw-${engine}@example.com`, 'stream-password-1');
      const s = await liveStream(u.token);
      expect((await changeOwnPassword(t.app, u.token, 'stream-password-1', 'stream-password-2')).statusCode).toBe(200);
      expect(await endsWithin(s, 5000)).toBe(true);
    });

    it('ends when the user is deactivated', async () => {
      const u = await createUser(t, `stream-off-${engine}@example.com`);
      const s = await liveStream(u.token);
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${u.id}`,
        headers: bearer(adminToken),
        payload: { is_active: false },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await endsWithin(s, 5000)).toBe(true);
    });

    it('ends when the user signs out everywhere, or signs out with that token', async () => {
      const u = await createUser(t, `stream-out-${engine}@example.com`);
      const everywhere = await liveStream(u.token);
      const post = (url: string, token: string) => t.app.inject({ method: 'POST', url, headers: bearer(token) });
      expect((await post('/api/v1/login/sign-out-everywhere', u.token)).statusCode).toBe(200);
      expect(await endsWithin(everywhere, 5000)).toBe(true);
      const fresh = await login(t.app, `stream-out-${engine}@example.com`, 'user-password-1');
      const signedOut = await liveStream(fresh);
      expect((await post('/api/v1/login/sign-out', fresh)).statusCode).toBe(200);
      expect(await endsWithin(signedOut, 5000)).toBe(true);
    });

    it('ends when the user is deleted', async () => {
      const u = await createUser(t, `stream-gone-${engine}@example.com`);
      const s = await liveStream(u.token);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${u.id}`, headers: bearer(adminToken) })).statusCode).toBe(200);
      expect(await endsWithin(s, 5000)).toBe(true);
    });

    it('a superuser demoted to a user stops hearing of other users’ jobs', async () => {
      const boss = await createUser(t, `stream-boss-${engine}@example.com`, 'boss-password-1', { is_superuser: true });
      const worker = await createUser(t, `stream-staff-${engine}@example.com`);
      const theirs = await seedComparisonJob(t.ctx.db, worker.id, ['alibris']);
      const own = await seedComparisonJob(t.ctx.db, boss.id, ['alibris']);
      const s = await liveStream(boss.token);
      t.ctx.jobEvents.touched(theirs);
      await s.waitFor((e) => e.event === 'jobs' && JSON.parse(e.data).ids.includes(theirs));
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${boss.id}`,
        headers: bearer(adminToken),
        payload: { is_superuser: false },
      });
      expect(res.statusCode, res.body).toBe(200);
      const heard = s.jobIds().length;
      t.ctx.jobEvents.touched([theirs, own]);
      await s.waitFor(() => s.jobIds().slice(heard).includes(own));
      expect(s.jobIds().slice(heard)).toEqual([own]);
    });
  });
});
