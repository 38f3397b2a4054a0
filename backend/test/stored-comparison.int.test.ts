// The stored comparison (comparison_rows) on both engines: a job created through the API and
// priced by the worker (answers and reuse) keeps rows equal to the computed comparison; pages
// and the CSV sorted or filtered on the stored columns answer exactly what computing every row
// answers; two writers of one ISBN on two marketplaces at once leave both prices in it; an older job
// is stored in steps; deleting the job takes its rows.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketplaceId } from '@app/domain/marketplaces';
import { comparisonTable } from '../src/comparison/query.ts';
import type { Db } from '../src/db/client.ts';
import { storeComparison } from '../src/comparison/stored.ts';
import { refreshBooksWritten } from '../src/worker/books-written.ts';
import { comparisonRows, jobs, LOOKUP_TABLES } from '../src/db/schema.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES, openTestDatabase } from './helpers/databases.ts';
import { sandboxWorkerParts, seedJob } from './helpers/worker.ts';

const SERVED: MarketplaceId[] = ['abe_books', 'biblio', 'alibris'];

/** What the comparison computes for every row of the job, beside what comparison_rows holds. */
async function storedAndComputed(db: Db, jobId: number) {
  const job = (await db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
  const { rows: computed } = await db.execute<Record<string, unknown>>(
    sql`SELECT id, isbn, best_price, best_source, spread FROM ${comparisonTable(job, { fees: {}, decisions: false })} ORDER BY id`,
  );
  const { rows: stored } = await db.execute<Record<string, unknown>>(
    sql`SELECT row_id AS id, isbn, best_price, best_source, spread FROM ${comparisonRows} WHERE job_id = ${jobId} ORDER BY row_id`,
  );
  const plain = (rows: Record<string, unknown>[]) => rows.map((r): Record<string, unknown> => ({ ...r, id: Number(r.id) }));
  return { job, computed: plain(computed), stored: plain(stored) };
}

describe.each(ENGINES)('the stored comparison on %s', (engine) => {
  let t: TestApp;
  let token: string;
  let sandbox: Sandbox;
  let jobId: number;

  async function runWorker(reuseWindowMs = 0) {
    const worker = startWorker({ db: t.ctx.db, pollIntervalMs: 20, reuseWindowMs, ...sandboxWorkerParts(sandbox, SERVED) });
    await worker.idle();
    await worker.stop();
  }
  const paste = async (isbns: string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(token),
      payload: { name: 'stored', abe_books: true, biblio: true, alibris: true, isbns: isbns.join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as number;
  };
  const compare = (id: number, filters: unknown[], qs: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/jobs/${id}/comparison${qs}`, headers: bearer(token), payload: { filters } });
  const csv = (id: number, filters: unknown[], sort: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/jobs/${id}/comparison/download-csv`,
      headers: bearer(token),
      payload: { filters, ...sort },
    });

  beforeAll(async () => {
    t = await startTestApp(engine);
    token = await login(t.app, ADMIN.email, ADMIN.password);
    // Some ISBNs without offers, Biblio sometimes in another currency: empty and incomparable prices.
    sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0.3 });
    jobId = await paste(sampleIsbns(60, 3_000));
    await runWorker();
  });
  afterAll(async () => {
    await sandbox?.close();
    await t?.close();
  });

  it('keeps a row per ISBN equal to the computed comparison as the worker finishes lookups', async () => {
    const { job, computed, stored } = await storedAndComputed(t.ctx.db, jobId);
    expect(job.comparison_stored).toBe(true);
    expect(stored).toHaveLength(60);
    expect(stored).toEqual(computed);
    // The answers gave prices from several sources, some rows none: the check compares real values.
    expect(new Set(stored.map((r) => r.best_source)).size).toBeGreaterThan(2);
    expect(stored.some((r) => r.spread !== null)).toBe(true);
  });

  it('answers pages, CSVs and the results summary from stored columns exactly as computing every row does', async () => {
    const asks: [unknown[], string][] = [
      [[], '?sort_by=spread&sort_direction=desc&limit=7&skip=3'],
      [[], '?sort_by=spread&sort_direction=asc&limit=50'],
      [[], '?sort_by=best_price&sort_direction=desc&limit=50'],
      [[], '?sort_by=estimated_profit&sort_direction=desc&limit=50'],
      [[], '?sort_by=best_source&sort_direction=asc&limit=50'],
      [[{ field: 'best_source', operator: 'equals', value: 'Alibris' }], '?limit=50'],
      [[{ field: 'best_price', operator: 'gt', value: '20' }], '?sort_by=isbn&sort_direction=desc&limit=50'],
      [[{ field: 'spread', operator: 'lt', value: '5' }], '?sort_by=best_price&sort_direction=desc&limit=50'],
    ];
    const answers = async () => {
      const out = [];
      for (const [filters, qs] of asks) {
        const page = await compare(jobId, filters, qs);
        expect(page.statusCode, page.body).toBe(200);
        const params = Object.fromEntries(new URLSearchParams(qs.slice(1)));
        const sort: Record<string, string> = params.sort_by
          ? { sort_by: params.sort_by, sort_direction: params.sort_direction ?? 'asc' }
          : {};
        const file = await csv(jobId, filters, sort);
        expect(file.statusCode, file.body).toBe(200);
        out.push({ page: page.json(), csv: file.body });
      }
      // The results summary (books, profit and best sources) sums the same figures.
      const results = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}/results`, headers: bearer(token) });
      expect(results.statusCode, results.body).toBe(200);
      out.push({ results: results.json() });
      return out;
    };
    const stored = await answers();
    expect(stored[5]!.page.data.length).toBeGreaterThan(0);
    // The same requests with the job marked as not stored: every row computed, as before.
    await t.ctx.db.update(jobs).set({ comparison_stored: false }).where(eq(jobs.id, jobId));
    try {
      expect(await answers()).toEqual(stored);
    } finally {
      await t.ctx.db.update(jobs).set({ comparison_stored: true }).where(eq(jobs.id, jobId));
    }
  });

  it('pages a sort on a stored column with the empty rows last, across the boundary and past it, as computing every row does', async () => {
    // A share of the ISBNs have no offers anywhere (noOfferShare) or one price only (no spread), so
    // each stored column has empty rows. Pages of 3 start at every offset around the last valued
    // row: they straddle the boundary at each position, then lie wholly among the empty rows, which
    // the split read finds by row order after counting the valued ones; then the last page, and past it.
    const LIMIT = 3;
    const { stored: rows } = await storedAndComputed(t.ctx.db, jobId);
    type Field = 'best_price' | 'best_source' | 'spread';
    const asks: { filters: unknown[]; field: Field; direction: 'asc' | 'desc' }[] = [];
    for (const field of ['best_price', 'best_source', 'spread'] as const)
      for (const direction of ['asc', 'desc'] as const) asks.push({ filters: [], field, direction });
    // Filtered too: the valued part and the count of it before an empty page both keep the filter.
    const filters = [{ field: 'isbn', operator: 'contains', value: '1' }];
    asks.push({ filters, field: 'spread', direction: 'desc' }, { filters, field: 'best_price', direction: 'asc' });
    const cmp = (a: unknown, b: unknown) => (a === b ? 0 : (a as number | string) < (b as number | string) ? -1 : 1);
    /** The rows' ids in the sort's order, empty values last, ties by row id in the sort's direction. */
    const expected = ({ filters: f, field, direction }: (typeof asks)[number]) => {
      const kept = f.length ? rows.filter((r) => String(r.isbn).includes('1')) : rows;
      const sign = direction === 'asc' ? 1 : -1;
      const valued = kept.filter((r) => r[field] !== null).sort((a, b) => sign * (cmp(a[field], b[field]) || cmp(a.id, b.id)));
      const empty = kept.filter((r) => r[field] === null).sort((a, b) => sign * cmp(a.id, b.id));
      expect(valued.length, `${field}: rows with a value`).toBeGreaterThan(LIMIT);
      expect(empty.length, `${field}: empty rows`).toBeGreaterThanOrEqual(LIMIT);
      return { order: [...valued, ...empty].map((r) => r.id), valued: valued.length };
    };
    const answers = async () => {
      const out = [];
      for (const ask of asks) {
        const { valued, order } = expected(ask);
        const pages: Record<number, unknown[]> = {};
        // Every start from the last valued page to the first wholly empty one, the last page and one past the end.
        const around = Array.from({ length: 2 * LIMIT + 2 }, (_, i) => valued - LIMIT - 1 + i);
        for (const skip of new Set([0, ...around, order.length - 1, order.length + 1])) {
          const qs = `?sort_by=${ask.field}&sort_direction=${ask.direction}&limit=${LIMIT}&skip=${skip}`;
          const page = await compare(jobId, ask.filters, qs);
          expect(page.statusCode, page.body).toBe(200);
          pages[skip] = page.json().data.map((r: { id: number }) => r.id);
        }
        const file = await csv(jobId, ask.filters, { sort_by: ask.field, sort_direction: ask.direction });
        expect(file.statusCode, file.body).toBe(200);
        out.push({ pages, csv: file.body });
      }
      return out;
    };
    const storedAnswers = await answers();
    const isbnOf = new Map(rows.map((r) => [r.id, r.isbn]));
    asks.forEach((ask, i) => {
      const { order } = expected(ask);
      const what = `${ask.field} ${ask.direction}${ask.filters.length ? ' filtered' : ''}`;
      for (const [skip, ids] of Object.entries(storedAnswers[i]!.pages))
        expect(ids, `${what}, skip ${skip}`).toEqual(order.slice(Number(skip), Number(skip) + LIMIT));
      // The CSV's rows in the same order (ISBN is its first column).
      const csvIsbns = storedAnswers[i]!.csv.trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0]);
      expect(csvIsbns, what).toEqual(order.map((id) => isbnOf.get(id)));
    });
    // Computing every row (the job marked as not stored) answers the same pages and files.
    await t.ctx.db.update(jobs).set({ comparison_stored: false }).where(eq(jobs.id, jobId));
    try {
      expect(await answers()).toEqual(storedAnswers);
    } finally {
      await t.ctx.db.update(jobs).set({ comparison_stored: true }).where(eq(jobs.id, jobId));
    }
  }, 120_000);

  it('fills the rows of a job answered from recent answers (reuse) too', async () => {
    const second = await paste(sampleIsbns(60, 3_000).slice(0, 30));
    await runWorker(3_600_000);
    const { stored, computed } = await storedAndComputed(t.ctx.db, second);
    expect(stored).toHaveLength(30);
    expect(stored.filter((r) => r.best_price !== null).length).toBeGreaterThan(0);
    expect(stored).toEqual(computed);
  });

  it('stores the comparison of a job written without one, in steps', async () => {
    const old = await seedJob(t.ctx.db, sampleIsbns(25, 3_000), SERVED);
    await t.ctx.db.update(jobs).set({ abe_books: true, biblio: true, alibris: true }).where(eq(jobs.id, old));
    await runWorker();
    expect((await storedAndComputed(t.ctx.db, old)).stored).toEqual([]);
    const [oldJob] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, old));
    expect(await storeComparison(t.ctx.db, oldJob!, 7)).toBe(25);
    const { job, stored, computed } = await storedAndComputed(t.ctx.db, old);
    expect(job.comparison_stored).toBe(true);
    expect(stored).toEqual(computed);
    expect(stored.some((r) => r.best_price !== null)).toBe(true);
  });

  it("has the worker's upkeep store an older job's comparison", async () => {
    const old = await seedJob(t.ctx.db, sampleIsbns(10, 3_000), SERVED);
    await t.ctx.db.update(jobs).set({ abe_books: true, biblio: true, alibris: true }).where(eq(jobs.id, old));
    await runWorker();
    const worker = startWorker({ db: t.ctx.db, pollIntervalMs: 20, pruneIntervalMs: 20, ...sandboxWorkerParts(sandbox, SERVED) });
    try {
      await expect.poll(async () => (await storedAndComputed(t.ctx.db, old)).job.comparison_stored, { timeout: 10_000 }).toBe(true);
    } finally {
      await worker.stop();
    }
    const { stored, computed } = await storedAndComputed(t.ctx.db, old);
    expect(stored).toHaveLength(10);
    expect(stored).toEqual(computed);
  });

  it('takes the rows away with the job', async () => {
    const doomed = await paste(sampleIsbns(5, 9_000));
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${doomed}`, headers: bearer(token) });
    expect(del.statusCode, del.body).toBeLessThan(300);
    const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${comparisonRows} WHERE job_id = ${doomed}`);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('two writers of one ISBN on PostgreSQL', () => {
  it('leave both prices in the stored row: the second waits for the first, then computes from both', async () => {
    const tdb = await openTestDatabase('pg', { poolSize: 4 });
    try {
      const db = tdb.db;
      const isbn = sampleIsbns(1, 5_000)[0]!;
      const jobId = await seedJob(db, [isbn], ['abe_books', 'alibris']);
      await db.update(jobs).set({ comparison_stored: true, abe_books: true, alibris: true }).where(eq(jobs.id, jobId));
      const abe = LOOKUP_TABLES.abe_books;
      const alibris = LOOKUP_TABLES.alibris;
      const [abeRow] = await db.select({ id: abe.id }).from(abe).where(eq(abe.isbn_lookup_job_id, jobId));
      const [alibrisRow] = await db.select({ id: alibris.id }).from(alibris).where(eq(alibris.isbn_lookup_job_id, jobId));
      await db.execute(sql`INSERT INTO ${comparisonRows} (job_id, row_id, isbn) VALUES (${jobId}, ${abeRow!.id}, ${isbn})`);

      // Writer A prices AbeBooks and holds its transaction open; writer B prices Alibris meanwhile.
      let releaseA!: () => void;
      const aHolds = new Promise<void>((r) => {
        releaseA = r;
      });
      let aWrote!: () => void;
      const aHasWritten = new Promise<void>((r) => {
        aWrote = r;
      });
      const writerA = db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE ${abe} SET total_listing_price = 12, lookup_status = 'completed' WHERE id = ${abeRow!.id}`);
        await refreshBooksWritten(tx, abe, [abeRow!.id]);
        aWrote();
        await aHolds;
      });
      await aHasWritten;
      let bDone = false;
      const writerB = db
        .transaction(async (tx) => {
          await tx.execute(sql`UPDATE ${alibris} SET price = 30, lookup_status = 'completed' WHERE id = ${alibrisRow!.id}`);
          await refreshBooksWritten(tx, alibris, [alibrisRow!.id]);
        })
        .then(() => {
          bDone = true;
        });
      await new Promise((r) => setTimeout(r, 300));
      expect(bDone).toBe(false); // waiting for A's lock
      releaseA();
      await Promise.all([writerA, writerB]);
      const [row] = await db.select().from(comparisonRows).where(eq(comparisonRows.job_id, jobId));
      expect(row).toMatchObject({ best_price: 12, best_source: 'Abe Books', spread: 18 });
    } finally {
      await tdb.cleanup();
    }
  });
});
