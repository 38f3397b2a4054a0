// Reuse of recent answers on both engines: a re-uploaded list is filled from the answers a
// marketplace gave within the window, without requests (counted at the sandbox), and the API says so.
import { and, eq, sql } from 'drizzle-orm';
import { dataFields, MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobProgress, jobs } from '../src/db/schema.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { lookupRows, sandboxWorkerParts, seedJob } from './helpers/worker.ts';

const SERVED: MarketplaceId[] = ['abe_books', 'alibris'];
/** The sandbox refuses this one (an invalid ISBN): a failed lookup on both served marketplaces. */
const REFUSED = '97801';
const HOUR = 3_600_000;

describe.each(ENGINES)('reuse of recent answers on %s', (engine) => {
  let t: TestApp;
  let token: string;
  let sandbox: Sandbox;

  /** Runs a worker over everything queued until it is done; returns the requests each marketplace received meanwhile. */
  async function runWorker(reuseWindowMs?: number): Promise<Record<string, number>> {
    const before = sandbox.stats().byMarketplace;
    const worker = startWorker({ db: t.ctx.db, pollIntervalMs: 20, reuseWindowMs, ...sandboxWorkerParts(sandbox, SERVED) });
    await worker.idle();
    await worker.stop();
    const after = sandbox.stats().byMarketplace;
    return Object.fromEntries(SERVED.map((id) => [id, after[id].requests - before[id].requests]));
  }
  const asked = (n: number) => Object.fromEntries(SERVED.map((id) => [id, n]));

  beforeAll(async () => {
    t = await startTestApp(engine);
    token = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterEach(async () => {
    await sandbox?.close();
    await t.ctx.db.delete(jobs);
  });
  afterAll(() => t?.close());

  const start = async () => {
    sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0.3 });
  };

  it('fills the overlap of a re-uploaded list from the first answers without requests, asks the rest and failures again', async () => {
    await start();
    const first = [...sampleIsbns(20, 7_000), REFUSED];
    const firstJob = await seedJob(t.ctx.db, first, SERVED);
    expect(await runWorker()).toEqual(asked(21));

    const overlap = first.slice(0, 15);
    const fresh = sampleIsbns(5, 8_000);
    const secondJob = await seedJob(t.ctx.db, [...overlap, ...fresh, REFUSED], SERVED);
    // Only the new ISBNs and the failed one are asked.
    expect(await runWorker()).toEqual(asked(6));

    for (const id of SERVED) {
      const original = new Map((await lookupRows(t.ctx.db, id, firstJob)).map((r) => [r.isbn, r]));
      for (const row of await lookupRows(t.ctx.db, id, secondJob)) {
        const source = original.get(row.isbn);
        if (row.isbn === REFUSED || !source) {
          expect(row.reused_from, `${id} ${row.isbn}`).toBeNull();
          expect(row.attempts).toBe(1);
          expect(row.answered_at).not.toBeNull();
          continue;
        }
        expect(row.reused_from, `${id} ${row.isbn}`).toBe(source.id);
        // The answer's own time travels with it, so the age shown is the answer's.
        expect(row.answered_at).toEqual(source.answered_at);
        expect(row.attempts).toBe(0);
        expect(row.lookup_status).toBe(source.lookup_status);
        expect(row.offers).toEqual(source.offers);
        for (const f of dataFields(MARKETPLACES[id])) expect(row[f.name], `${id} ${row.isbn} ${f.name}`).toEqual(source[f.name]);
      }
      const [progress] = await t.ctx.db
        .select()
        .from(jobProgress)
        .where(and(eq(jobProgress.job_id, secondJob), eq(jobProgress.source, id)));
      expect(progress).toMatchObject({ total: 21, processed: 21 });
    }
    expect((await lookupRows(t.ctx.db, 'abe_books', secondJob)).find((r) => r.isbn === REFUSED)?.lookup_status).toBe('failed');

    // The API shows which rows were reused and when their answer was given, on the page and in the offers.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/abe-books/price-lookups?limit=100',
      headers: bearer(token),
      payload: { filters: [{ field: 'isbn_lookup_job_id', operator: 'equals', value: String(secondJob) }] },
    });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as { id: number; isbn: string; reused: boolean; answered_at: string }[];
    expect(
      rows
        .filter((r) => r.reused)
        .map((r) => r.isbn)
        .sort(),
    ).toEqual([...overlap].sort());
    expect(rows.every((r) => !Number.isNaN(Date.parse(r.answered_at)))).toBe(true);
    const reusedRow = rows.find((r) => r.reused)!;
    const firstAnswer = (await lookupRows(t.ctx.db, 'abe_books', firstJob)).find((r) => r.isbn === reusedRow.isbn)!;
    expect(new Date(reusedRow.answered_at)).toEqual(firstAnswer.answered_at);
    const offers = await t.app.inject({
      method: 'GET',
      url: `/api/v1/abe-books/price-lookups/${reusedRow.id}/offers`,
      headers: bearer(token),
    });
    expect(offers.json()).toMatchObject({ reused: true, answered_at: reusedRow.answered_at, attempts: 0 });
  });

  it('asks again when the answer is older than the window', async () => {
    await start();
    const isbns = sampleIsbns(10, 9_000);
    const firstJob = await seedJob(t.ctx.db, isbns, SERVED);
    await runWorker();
    await t.ctx.db.execute(
      sql`UPDATE abe_books_price_lookups SET answered_at = now() - interval '2 hours' WHERE isbn_lookup_job_id = ${firstJob}`,
    );
    await t.ctx.db.execute(
      sql`UPDATE alibris_price_lookups SET answered_at = now() - interval '2 hours' WHERE isbn_lookup_job_id = ${firstJob}`,
    );

    const secondJob = await seedJob(t.ctx.db, isbns, SERVED);
    expect(await runWorker(HOUR)).toEqual(asked(10));
    expect((await lookupRows(t.ctx.db, 'abe_books', secondJob)).every((r) => r.reused_from === null)).toBe(true);
    // Within a wider window, the same two-hour-old answers are reused… but the second job's are fresher.
    const thirdJob = await seedJob(t.ctx.db, isbns, SERVED);
    expect(await runWorker(3 * HOUR)).toEqual(asked(0));
    const second = new Map((await lookupRows(t.ctx.db, 'abe_books', secondJob)).map((r) => [r.isbn, r.id]));
    for (const row of await lookupRows(t.ctx.db, 'abe_books', thirdJob)) expect(row.reused_from).toBe(second.get(row.isbn));
  });

  it('never reuses with a window of 0', async () => {
    await start();
    const isbns = sampleIsbns(10, 10_000);
    await seedJob(t.ctx.db, isbns, SERVED);
    await runWorker(0);
    const again = await seedJob(t.ctx.db, isbns, SERVED);
    expect(await runWorker(0)).toEqual(asked(10));
    expect((await lookupRows(t.ctx.db, 'alibris', again)).every((r) => r.reused_from === null && r.attempts === 1)).toBe(true);
  });

  it('asks again for a job re-priced after the answer, and reuses answers given since', async () => {
    await start();
    const isbns = sampleIsbns(8, 11_000);
    await seedJob(t.ctx.db, isbns, SERVED);
    await runWorker();
    const repriced = await seedJob(t.ctx.db, isbns, SERVED);
    await t.ctx.db.update(jobs).set({ repriced_at: sql`now()` }).where(eq(jobs.id, repriced));
    expect(await runWorker()).toEqual(asked(8));

    // A job re-priced an hour ago takes the answers given since then (the re-priced job's).
    const later = await seedJob(t.ctx.db, isbns, SERVED);
    await t.ctx.db.update(jobs).set({ repriced_at: sql`now() - interval '1 hour'` }).where(eq(jobs.id, later));
    expect(await runWorker()).toEqual(asked(0));
    const fresh = new Map((await lookupRows(t.ctx.db, 'alibris', repriced)).map((r) => [r.isbn, r.id]));
    for (const row of await lookupRows(t.ctx.db, 'alibris', later)) expect(row.reused_from).toBe(fresh.get(row.isbn));
  });
});
