// Live updates: GET /jobs/events streams which visible jobs changed, fed by NOTIFY from whatever
// process changed them (the embedded worker, another connection), coalesced, on both engines.
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { JobEvents } from '../src/core/job-events.ts';
import { openDatabase } from '../src/db/client.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { productRoutes } from '../src/routes.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { LookupQueue } from '../src/worker/queue.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, createUser, login, silentLogger, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { ALL_SOURCES, postJobUpload } from './helpers/multipart.ts';
import { openEventStream, type EventStream } from './helpers/sse.ts';
import { sandboxWorkerParts } from './helpers/worker.ts';

const INTERVAL_MS = 100;
const EVENTS = '/api/v1/jobs/events';

describe.each(ENGINES)('live job events on %s', (engine) => {
  let t: TestApp;
  let base: string;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let adminToken: string;
  const open: EventStream[] = [];

  const stream = async (token?: string) => {
    const s = await openEventStream(`${base}${EVENTS}`, token);
    open.push(s);
    return s;
  };
  /** A live stream: answered 200 and said `ready`. */
  const liveStream = async (token: string) => {
    const s = await stream(token);
    expect(s.status).toBe(200);
    await s.waitFor((e) => e.event === 'ready');
    return s;
  };
  const uploadJob = async (token: string, isbns: string[], sources: Record<string, boolean> = { ...ALL_SOURCES }) => {
    const res = await postJobUpload(t.app, token, { name: 'live', ...sources }, { name: 'isbns.csv', data: `ISBN\n${isbns.join('\n')}\n` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as number;
  };
  const alibrisOnly = { abe_books: false, biblio: false, alibris: true, pallet_iq: false };

  beforeAll(async () => {
    t = await startTestApp(engine, {
      env: { LIVE_UPDATE_INTERVAL_MS: String(INTERVAL_MS), LIVE_HEARTBEAT_MS: '200', LIVE_MAX_STREAMS_PER_USER: '3' },
    });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    owner = await createUser(t, `owner-${engine}@example.com`);
    other = await createUser(t, `other-${engine}@example.com`);
    adminToken = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  afterAll(async () => {
    // fetch (undici) keeps this suite's sockets alive after their answers, which app.close() would
    // wait out; the shutdown with streams open is the 'app.close()' test's.
    t?.app.server.closeAllConnections();
    await t?.close();
  });

  it('refuses callers without a valid token', async () => {
    expect((await t.app.inject({ method: 'GET', url: EVENTS })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: EVENTS, headers: bearer('not-a-token') })).statusCode).toBe(403);
    const anonymous = await stream();
    expect(anonymous.status).toBe(401);
  });

  it('tells the owner and superusers, not other users, when a job is created and as its lookups finish', async () => {
    const [mine, theirs, admin] = [await liveStream(owner.token), await liveStream(other.token), await liveStream(adminToken)];
    const jobId = await uploadJob(owner.token, sampleIsbns(12, 41_000), alibrisOnly);
    await mine.waitFor((e) => e.event === 'jobs' && JSON.parse(e.data).ids.includes(jobId));
    await admin.waitFor((e) => e.event === 'jobs' && JSON.parse(e.data).ids.includes(jobId));
    const created = mine.events.length;

    const sandbox = await startMarketplaceSandbox({ latencyMs: 5 });
    const worker = startWorker({
      db: t.ctx.db,
      ...sandboxWorkerParts(sandbox, ['alibris']),
      jobEvents: t.ctx.jobEvents,
      pollIntervalMs: 20,
    });
    try {
      await worker.idle();
    } finally {
      await worker.stop();
      await sandbox.close();
    }
    // Lookups finishing are announced as such: another event naming the job after creation's.
    await mine.waitFor((e, i = mine.events.indexOf(e)) => i >= created && e.event === 'jobs' && JSON.parse(e.data).ids.includes(jobId));
    await admin.waitFor(() => admin.jobIds().filter((id) => id === jobId).length >= 2);
    await sleep(3 * INTERVAL_MS);
    expect(theirs.jobIds()).toEqual([]);
    expect(mine.jobIds().every((id) => id === jobId)).toBe(true);
  });

  it('coalesces: many finished batches in a short time make a few events, not one each', async () => {
    await uploadJob(owner.token, sampleIsbns(40, 43_000), alibrisOnly);
    const mine = await liveStream(owner.token);
    await sleep(3 * INTERVAL_MS); // the creation's event is out of the way
    const before = mine.jobIds().length;
    const queue = new LookupQueue(t.ctx.db, MARKETPLACES.alibris);
    const started = Date.now();
    let batches = 0;
    for (;;) {
      const [row] = await queue.claim(1, 60_000);
      if (!row) break;
      const moved = await queue.finish([
        { id: row.id, attempts: row.attempts, status: 'completed', last_error: null, offers: [], record: null },
      ]);
      t.ctx.jobEvents.touched(moved.jobIds);
      batches++;
    }
    const elapsed = Date.now() - started;
    expect(batches).toBe(40);
    await mine.waitFor(() => mine.jobIds().length > before);
    await sleep(3 * INTERVAL_MS);
    const events = mine.jobIds().length - before;
    // One notification per interval from the writer, at most one event per interval on the stream.
    expect(events).toBeGreaterThan(0);
    expect(events).toBeLessThanOrEqual(Math.ceil(elapsed / INTERVAL_MS) + 2);
    expect(events).toBeLessThan(batches / 2);
  });

  it('sends heartbeats and bounds the streams per user (429 past LIVE_MAX_STREAMS_PER_USER)', async () => {
    const first = await liveStream(other.token);
    await liveStream(other.token);
    await liveStream(other.token);
    const fourth = await stream(other.token);
    expect(fourth.status).toBe(429);
    await expect.poll(() => first.comments, { timeout: 3000 }).toBeGreaterThan(0);
    // A closed stream frees its place.
    first.close();
    await expect.poll(async () => (await stream(other.token)).status, { timeout: 3000 }).toBe(200);
  });

  it('app.close() ends open streams instead of waiting for them', async () => {
    const second = await buildApp(t.ctx, { routes: productRoutes });
    const url = await second.listen({ host: '127.0.0.1', port: 0 });
    const s = await openEventStream(`${url}${EVENTS}`, owner.token);
    open.push(s);
    await s.waitFor((e) => e.event === 'ready');
    const started = Date.now();
    await second.close();
    await s.ended;
    expect(Date.now() - started).toBeLessThan(2000);
  });

  if (engine === 'pg') {
    it('hears events sent by another process on the same database', async () => {
      const jobId = await uploadJob(owner.token, sampleIsbns(2, 45_000), alibrisOnly);
      const mine = await liveStream(owner.token);
      await sleep(3 * INTERVAL_MS);
      const before = mine.events.length;
      // Another process: its own pool and its own notifier, as `npm run worker` has.
      const elsewhere = await openDatabase({ url: t.url });
      try {
        const events = new JobEvents(elsewhere.db, 10, silentLogger);
        events.touched(jobId);
        await events.close();
      } finally {
        await elsewhere.close();
      }
      await mine.waitFor((e, i = mine.events.indexOf(e)) => i >= before && e.event === 'jobs' && JSON.parse(e.data).ids.includes(jobId));
    });

    it('reconnects its listener after the database drops it; streams end meanwhile so pages poll', async () => {
      const jobId = await uploadJob(owner.token, sampleIsbns(2, 47_000), alibrisOnly);
      const before = await liveStream(owner.token);
      const { rows } = await t.ctx.db.execute<{ n: number }>(
        sql`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      expect(rows[0]?.n).toBe(1);
      await before.ended;
      // A new stream is live again once the listener is back (503 while it reconnects).
      let after: EventStream | undefined;
      await expect
        .poll(
          async () => {
            after = await stream(owner.token);
            return after.status;
          },
          { timeout: 10_000 },
        )
        .toBe(200);
      const live = after as EventStream;
      await live.waitFor((e) => e.event === 'ready');
      t.ctx.jobEvents.touched(jobId);
      await live.waitFor((e) => e.event === 'jobs' && JSON.parse(e.data).ids.includes(jobId));
    });
  }
});
