// Job control through the HTTP API on both engines: cancel, retry failed, re-price and delete, their
// effect on lookups and progress counters (which must always match the rows), the worker's side of a
// cancelled or deleted job, the access rule of every route, and the 422s.
import { MARKETPLACES, MARKETPLACE_IDS, type MarketplaceId } from '@app/domain/marketplaces';
import { FINISHED_STATUSES, type LookupStatus } from '@app/domain/status';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobProgress, jobRejections, jobs } from '../src/db/schema.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { LookupQueue, type ClaimedRow, type FinishedRow } from '../src/worker/queue.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES, onOneEngine } from './helpers/databases.ts';
import { postJobUpload } from './helpers/multipart.ts';
import { lookupRows, sandboxWorkerParts } from './helpers/worker.ts';

type Source = Partial<Record<MarketplaceId, boolean>>;

describe.each(ENGINES)('job control on %s', (engine) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let admin = '';

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await createUser(t, 'control-owner@example.com');
    other = await createUser(t, 'control-other@example.com');
    admin = await login(t.app, ADMIN.email, ADMIN.password);
  });
  // Each test starts with an empty queue, so a claim only sees the test's own job.
  afterEach(async () => {
    await t.ctx.db.delete(jobs);
  });
  afterAll(() => t.close());

  /** Uploads a job of these ISBNs (plus one cell that is no ISBN) for the sources given. */
  async function createJob(isbns: string[], sources: Source, token = owner.token): Promise<number> {
    const res = await postJobUpload(
      t.app,
      token,
      { name: 'Control', ...sources },
      { name: 'isbns.csv', data: ['isbn', ...isbns, 'no isbn'].join('\n') },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  /** A job from a pasted list: no upload thread to start, where how the job came is beside the point. */
  async function pasteJob(isbns: string[], sources: Source): Promise<number> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(owner.token),
      payload: { name: 'Control', ...sources, isbns: isbns.join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  const call = (method: 'POST' | 'GET' | 'DELETE', url: string, token = owner.token) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {} });

  async function act(action: string, jobId: number, expected = 200, token = owner.token) {
    const res = await call('POST', `/jobs/${jobId}/${action}`, token);
    expect(res.statusCode, res.body).toBe(expected);
    return res.json();
  }

  const readJob = async (id: number) => (await call('GET', `/jobs/${id}`)).json();

  const statuses = async (m: MarketplaceId, jobId: number) => (await lookupRows(t.ctx.db, m, jobId)).map((r) => r.lookup_status).sort();

  /** The invariant every action keeps: per source, processed = lookups in a finished status. */
  async function expectCountersMatchRows(jobId: number) {
    const job = await readJob(jobId);
    for (const m of MARKETPLACE_IDS) {
      if (!job[m].enabled) continue;
      const rows = await lookupRows(t.ctx.db, m, jobId);
      const finished = rows.filter((r) => FINISHED_STATUSES.includes(r.lookup_status as LookupStatus)).length;
      expect(job[m], m).toMatchObject({ total_isbns: rows.length, processed_isbns: finished });
    }
  }

  const queueOf = (m: MarketplaceId) => new LookupQueue(t.ctx.db, MARKETPLACES[m]);
  const result = (row: ClaimedRow, status: FinishedRow['status'], record: FinishedRow['record'] = null): FinishedRow => ({
    id: row.id,
    attempts: row.attempts,
    status,
    last_error: status === 'failed' ? 'refused' : null,
    offers: record ? [record] : [],
    record,
  });

  /** Claims every due row of the marketplace and finishes each with the status `statusOf` picks. */
  async function finishAll(m: MarketplaceId, statusOf: (row: ClaimedRow, i: number) => FinishedRow['status']) {
    const claimed = await queueOf(m).claim(50, 60_000);
    await queueOf(m).finish(claimed.map((row, i) => result(row, statusOf(row, i))));
    return claimed;
  }

  it('cancel stops queued lookups, lets in-flight ones finish and counts the cancelled as processed', async () => {
    const jobId = await createJob(sampleIsbns(6), { abe_books: true, alibris: true });
    const abe = queueOf('abe_books');
    const [done, transient, unsent, vanished] = await abe.claim(4, 60_000);

    const cancelled = await act('cancel', jobId);
    expect(cancelled.lookups_affected).toBe(2 + 6);
    expect(cancelled.cancelled_at).toEqual(expect.any(String));
    expect(cancelled.abe_books).toMatchObject({ total_isbns: 6, processed_isbns: 2 });
    expect(cancelled.alibris).toMatchObject({ total_isbns: 6, processed_isbns: 6 });
    await expectCountersMatchRows(jobId);

    // In flight: an answer is written as usual; a transient failure, a hand-back and an expired
    // lease do not bring the row back to the queue, they cancel it.
    expect(await abe.finish([result(done!, 'completed')])).toMatchObject({ count: 1, byStatus: { completed: 1 } });
    expect(await abe.requeue([{ id: transient!.id, attempts: transient!.attempts, last_error: 'timeout', delay_ms: 0 }])).toBe(1);
    expect(await abe.release([unsent!])).toBe(1);
    await t.ctx.db.execute(
      sql`UPDATE abe_books_price_lookups SET lease_expires_at = now() - interval '1 second' WHERE id = ${vanished!.id}`,
    );
    expect((await abe.reapExpired(5)).count).toBe(1);
    expect(await statuses('abe_books', jobId)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled', 'completed']);
    expect(await statuses('alibris', jobId)).toEqual(Array(6).fill('cancelled'));
    await expectCountersMatchRows(jobId);
    expect(await readJob(jobId)).toMatchObject({ abe_books: { processed_isbns: 6 }, alibris: { processed_isbns: 6 } });

    // Nothing is left for a worker; cancelling again changes nothing.
    expect(await abe.claim(50, 60_000)).toEqual([]);
    expect(await abe.hasWork()).toBe(false);
    const again = await act('cancel', jobId);
    expect(again.lookups_affected).toBe(0);
    expect(again.cancelled_at).toBe(cancelled.cancelled_at);
  });

  it('cancelling a finished job answers 409 and leaves it as it was', async () => {
    const jobId = await createJob(sampleIsbns(2), { biblio: true });
    await finishAll('biblio', () => 'completed');
    const res = await call('POST', `/jobs/${jobId}/cancel`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/already finished/);
    expect((await readJob(jobId)).cancelled_at).toBeNull();
  });

  it('retry failed queues the failed lookups of one marketplace or all, with fresh attempts, and moves progress back', async () => {
    const jobId = await createJob(sampleIsbns(3), { abe_books: true, biblio: true });
    await finishAll('abe_books', (_, i) => (i === 0 ? 'failed' : 'completed'));
    await finishAll('biblio', (_, i) => (i < 2 ? 'failed' : 'no_offers_available'));
    expect((await call('GET', `/jobs/${jobId}/retryable`)).json()).toMatchObject({
      abe_books: { failed: 1, cancelled: 0 },
      biblio: { failed: 2, cancelled: 0 },
      alibris: { failed: 0, cancelled: 0 },
    });

    const one = await act('retry-failed?market=abe-books', jobId);
    expect(one.lookups_affected).toBe(1);
    expect(one.abe_books.processed_isbns).toBe(2);
    expect(one.biblio.processed_isbns).toBe(3);
    const retried = (await lookupRows(t.ctx.db, 'abe_books', jobId)).find((r) => r.lookup_status === 'queued');
    expect(retried).toMatchObject({ attempts: 0, last_error: null, lease_expires_at: null });
    expect(await statuses('biblio', jobId)).toEqual(['failed', 'failed', 'no_offers_available']);
    await expectCountersMatchRows(jobId);

    const all = await act('retry-failed', jobId);
    expect(all.lookups_affected).toBe(2);
    expect(await statuses('biblio', jobId)).toEqual(['no_offers_available', 'queued', 'queued']);
    await expectCountersMatchRows(jobId);
    // Nothing failed any more: a retry is a no-op.
    expect((await act('retry-failed', jobId)).lookups_affected).toBe(0);
  });

  it('retry on a cancelled job resumes its cancelled lookups and the job is no longer cancelled', async () => {
    const jobId = await createJob(sampleIsbns(3), { pallet_iq: true });
    await act('cancel', jobId);
    expect((await call('GET', `/jobs/${jobId}/retryable`)).json().pallet_iq).toEqual({ failed: 0, cancelled: 3 });
    const resumed = await act('retry-failed', jobId);
    expect(resumed).toMatchObject({ lookups_affected: 3, cancelled_at: null, pallet_iq: { processed_isbns: 0 } });
    expect(await statuses('pallet_iq', jobId)).toEqual(['queued', 'queued', 'queued']);
  });

  it('re-price queues every finished lookup again keeping its data until the new answer overwrites it', async () => {
    const [first, second] = sampleIsbns(2);
    const jobId = await createJob([first!, second!], { abe_books: true, alibris: true });
    const abe = queueOf('abe_books');
    const claimed = await abe.claim(50, 60_000);
    await abe.finish(claimed.map((row) => result(row, 'completed', { listing_price: 10, title: `old ${row.isbn}` })));
    await finishAll('alibris', () => 'failed');

    const repriced = await act('reprice?market=abe-books', jobId);
    expect(repriced.lookups_affected).toBe(2);
    expect(repriced.repriced_at).toEqual(expect.any(String));
    expect(repriced.abe_books.processed_isbns).toBe(0);
    expect(repriced.alibris.processed_isbns).toBe(2);
    for (const row of await lookupRows(t.ctx.db, 'abe_books', jobId)) {
      expect(row).toMatchObject({ lookup_status: 'queued', attempts: 0, listing_price: 10, title: `old ${row.isbn}` });
      expect(row.offers).toHaveLength(1);
    }
    await expectCountersMatchRows(jobId);

    const again = await abe.claim(50, 60_000);
    expect(again.map((r) => r.isbn).sort()).toEqual([first, second].sort());
    await abe.finish(again.map((row) => result(row, 'completed', { listing_price: 20, title: `new ${row.isbn}` })));
    for (const row of await lookupRows(t.ctx.db, 'abe_books', jobId)) {
      expect(row).toMatchObject({ lookup_status: 'completed', attempts: 1, listing_price: 20, title: `new ${row.isbn}` });
    }

    // All marketplaces: a cancelled job runs again, failed and answered lookups alike.
    await act('cancel', jobId, 409);
    const all = await act('reprice', jobId);
    expect(all).toMatchObject({
      lookups_affected: 4,
      cancelled_at: null,
      abe_books: { processed_isbns: 0 },
      alibris: { processed_isbns: 0 },
    });
    await expectCountersMatchRows(jobId);
  });

  it('re-price leaves lookups still queued or in flight alone and clears a cancel', async () => {
    const jobId = await createJob(sampleIsbns(4), { biblio: true });
    const [inFlight] = await queueOf('biblio').claim(1, 60_000);
    await act('cancel', jobId);
    const repriced = await act('reprice', jobId);
    expect(repriced).toMatchObject({ lookups_affected: 3, cancelled_at: null, biblio: { processed_isbns: 0 } });
    expect(await statuses('biblio', jobId)).toEqual(['pending', 'queued', 'queued', 'queued']);
    expect((await queueOf('biblio').finish([result(inFlight!, 'completed')])).count).toBe(1);
    await expectCountersMatchRows(jobId);
  });

  it('delete removes the job with its lookups, counters and rejected cells; a worker finishing late writes nothing', async () => {
    const jobId = await createJob(sampleIsbns(3), { abe_books: true, biblio: true });
    const abe = queueOf('abe_books');
    const claimed = await abe.claim(3, 60_000);
    expect(claimed).toHaveLength(3);
    expect(await t.ctx.db.select().from(jobRejections).where(eq(jobRejections.job_id, jobId))).toHaveLength(1);

    const res = await call('DELETE', `/jobs/${jobId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Job deleted successfully' });
    expect((await call('GET', `/jobs/${jobId}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/jobs/${jobId}`)).statusCode).toBe(404);
    for (const m of MARKETPLACE_IDS) expect(await lookupRows(t.ctx.db, m, jobId), m).toEqual([]);
    expect(await t.ctx.db.select().from(jobProgress).where(eq(jobProgress.job_id, jobId))).toEqual([]);
    expect(await t.ctx.db.select().from(jobRejections).where(eq(jobRejections.job_id, jobId))).toEqual([]);

    const [a, b, c] = claimed;
    expect(await abe.finish([result(a!, 'completed', { listing_price: 1 })])).toMatchObject({ count: 0, byStatus: {} });
    expect(await abe.requeue([{ id: b!.id, attempts: b!.attempts, last_error: 'x', delay_ms: 0 }])).toBe(0);
    expect(await abe.release([c!])).toBe(0);
    expect((await abe.reapExpired(5)).count).toBe(0);
  });

  it('with the worker running: cancel lets in-flight lookups finish, then the worker goes idle; retry and re-price run again', async () => {
    const isbns = sampleIsbns(24, 500);
    const [refusedOnce] = isbns;
    // The sandbox refuses one ISBN on its first request (a final failure) and answers it afterwards.
    const sandbox = await startMarketplaceSandbox({ latencyMs: 40, failIsbns: { [refusedOnce!]: 1 } });
    const parts = sandboxWorkerParts(sandbox, ['alibris'], { concurrency: 2, ratePerSecond: 1000 });
    const worker = startWorker({ db: t.ctx.db, pollIntervalMs: 20, batchSize: 4, ...parts });
    try {
      const jobId = await createJob(isbns, { alibris: true });
      await expect.poll(async () => (await statuses('alibris', jobId)).filter((s) => s !== 'queued').length).toBeGreaterThan(0);
      const cancelled = await act('cancel', jobId);
      expect(cancelled.lookups_affected).toBeGreaterThan(0);
      await worker.idle();
      const after = await statuses('alibris', jobId);
      expect(after.filter((s) => s === 'cancelled')).toHaveLength(cancelled.lookups_affected);
      expect(after.filter((s) => !FINISHED_STATUSES.includes(s as LookupStatus))).toEqual([]);
      expect((await readJob(jobId)).alibris).toMatchObject({ total_isbns: 24, processed_isbns: 24 });
      await expectCountersMatchRows(jobId);
      const requests = sandbox.stats().byMarketplace.alibris.requests;
      expect(requests).toBeLessThan(24);

      // Retry resumes the cancelled lookups and the one the sandbox refused; the worker answers them all.
      const retried = await act('retry-failed', jobId);
      expect(retried.lookups_affected).toBe(24 - requests + 1);
      await worker.idle();
      expect((await statuses('alibris', jobId)).filter((s) => s !== 'completed' && s !== 'no_offers_available')).toEqual([]);
      await expectCountersMatchRows(jobId);

      // Re-price: every ISBN is asked again.
      await act('reprice', jobId);
      await worker.idle();
      for (const isbn of isbns) expect(sandbox.stats().calls[`alibris:${isbn}`]?.length, isbn).toBeGreaterThanOrEqual(2);
      expect((await readJob(jobId)).alibris.processed_isbns).toBe(24);
      await expectCountersMatchRows(jobId);
    } finally {
      await worker.stop();
      await sandbox.close();
    }
  });

  it('refuses a marketplace that is unknown or not enabled on the job (422 naming market) and a bad job id', async () => {
    const jobId = await createJob(sampleIsbns(1), { abe_books: true });
    for (const action of ['retry-failed', 'reprice']) {
      for (const market of ['nowhere', 'biblio']) {
        const res = await call('POST', `/jobs/${jobId}/${action}?market=${market}`);
        expect(res.statusCode, `${action} ${market}`).toBe(422);
        expect(res.json().detail[0].loc).toEqual(['query', 'market']);
      }
    }
    expect((await call('POST', `/jobs/${jobId}/retry-failed?market=biblio`)).json().detail[0].msg).toBe(
      'Biblio is not enabled on this job',
    );
    for (const [method, url] of [
      ['POST', '/jobs/abc/cancel'],
      ['POST', '/jobs/0/reprice'],
      ['DELETE', '/jobs/99999999999'],
      ['GET', '/jobs/-1/retryable'],
    ] as const) {
      const res = await call(method, url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['path', 'id']);
    }
  });

  // Access is decided in the routes, before any engine-specific code: on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    it('lets owners and superusers act on a job: anonymous 401, another user 404', async () => {
      const routes: [method: 'POST' | 'GET' | 'DELETE', path: string][] = [
        ['POST', 'cancel'],
        ['POST', 'retry-failed'],
        ['POST', 'reprice'],
        ['GET', 'retryable'],
        ['DELETE', ''],
      ];
      for (const [method, path] of routes) {
        for (const [who, token, expected] of [
          ['anonymous', '', 401],
          ['another user', other.token, 404],
          ['owner', owner.token, 200],
          ['superuser', admin, 200],
        ] as const) {
          // A fresh job each time: a delete (or a cancel) must not decide the next caller's answer.
          const jobId = await pasteJob(sampleIsbns(2), { abe_books: true });
          const res = await call(method, `/jobs/${jobId}${path ? `/${path}` : ''}`, token);
          expect(res.statusCode, `${method} ${path} as ${who}: ${res.body}`).toBe(expected);
          if (expected === 404)
            expect(await readJob(jobId)).toMatchObject({ id: jobId, cancelled_at: null, abe_books: { processed_isbns: 0 } });
        }
      }
    }),
  );
});
