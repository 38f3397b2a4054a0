// A big job refreshes the planner's statistics of the tables it grew (db/planner-statistics.ts): the
// queue's claim and the worker's write-back were planned as if a just-filled table were empty
// (measured at 100k ISBNs: ~250 ms and ~350 ms a statement instead of 4 and 30), and PGlite has no
// autovacuum to catch up. A small job on a big table leaves them alone.
import { must } from '@app/domain/must';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isbnsNeedingDetails } from '../src/book-details/repository.ts';
import { LOOKUP_TABLES, watches } from '../src/db/schema.ts';
import { refreshBooksWritten } from '../src/worker/books-written.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { ADMIN, bearer, login, testAppPerSuite } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';

describe.each(ENGINES)('planner statistics after a job on %s', (engine) => {
  const t = testAppPerSuite(engine);
  let token: string;
  beforeAll(async () => {
    token = await login(t.app, ADMIN.email, ADMIN.password);
  });

  const paste = async (isbns: readonly string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(token),
      payload: { name: 'stats', biblio: true, isbns: isbns.join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** What the planner believes each table holds (-1: never analyzed). */
  const estimates = async () => {
    const { rows } = await t.ctx.db.execute<{ relname: string; reltuples: number }>(
      sql`SELECT relname, reltuples::float8 AS reltuples FROM pg_class
          WHERE relname IN ('biblio_price_lookups', 'comparison_rows', 'alibris_price_lookups') AND relnamespace = current_schema()::regnamespace`,
    );
    return Object.fromEntries(rows.map((r) => [r.relname, Number(r.reltuples)]));
  };

  it('analyzes the tables a big job grew, and only those', async () => {
    expect(await estimates()).toEqual({ biblio_price_lookups: -1, comparison_rows: -1, alibris_price_lookups: -1 });
    await paste(sampleIsbns(1_500, 610_000));
    expect(await estimates()).toEqual({ biblio_price_lookups: 1_500, comparison_rows: 1_500, alibris_price_lookups: -1 });
  });

  it('leaves them alone after a job under a tenth of their size', async () => {
    await paste(sampleIsbns(100, 620_000));
    expect(await estimates()).toEqual({ biblio_price_lookups: 1_500, comparison_rows: 1_500, alibris_price_lookups: -1 });
  });
});

// A job written since its tables were last analyzed is planned as if it had one row (its id is in
// no statistics). The write-back's refresh of its stored comparison picked the rows by (job, ISBN),
// and that estimate made it read the job's stored rows against all its lookups, once per row:
// quadratic in the job's size (issue 29: minutes per batch at 30k ISBNs). It must read what it writes.
describe.each(ENGINES)('a write-back on a job the statistics have not seen, on %s', (engine) => {
  const t = testAppPerSuite(engine);
  let token: string;
  beforeAll(async () => {
    token = await login(t.app, ADMIN.email, ADMIN.password);
  });

  const paste = async (isbns: readonly string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(token),
      payload: { name: 'unseen', abe_books: true, biblio: true, isbns: isbns.join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as number;
  };
  /** Tuples read so far from a table, by sequential and index scans (cumulative statistics). */
  const tuplesRead = async (table: string) => {
    await t.ctx.db.execute(sql`SELECT pg_stat_force_next_flush()`);
    const { rows } = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT (coalesce(s.seq_tup_read, 0) + coalesce((SELECT sum(i.idx_tup_read) FROM pg_stat_user_indexes i WHERE i.relid = s.relid), 0))::float8 AS n
          FROM pg_stat_user_tables s WHERE s.relname = ${table}`,
    );
    return Number(rows[0]?.n ?? 0);
  };

  it("refreshes the stored rows it wrote by their keys, reading a few rows, not the job's", async () => {
    await paste(sampleIsbns(1_500, 630_000)); // analyzed: one job in the statistics
    const unseen = await paste(sampleIsbns(900, 640_000)); // under MIN_ROWS: not analyzed
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`SELECT id FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ${unseen} ORDER BY id LIMIT 4`,
    );
    const before = { lookups: await tuplesRead('abe_books_price_lookups'), stored: await tuplesRead('comparison_rows') };
    await t.ctx.db.transaction((tx) =>
      refreshBooksWritten(
        tx,
        LOOKUP_TABLES.abe_books,
        rows.map((r) => Number(r.id)),
      ),
    );
    const read = {
      lookups: (await tuplesRead('abe_books_price_lookups')) - before.lookups,
      stored: (await tuplesRead('comparison_rows')) - before.stored,
    };
    // 4 rows written: a handful of index probes each, whatever the job's size (910 lookups read before).
    expect(read.lookups).toBeLessThan(100);
    // PostgreSQL still reads the job's stored rows once (908 here: under the one-row estimate every
    // index led by job_id costs the same to it); PGlite reads the rows written. Linear, not quadratic.
    if (engine === 'pglite') expect(read.stored).toBeLessThan(100);
  });

  it("refreshes them and evaluates a job watch in one statement, still reading a few lookups, not the job's", async () => {
    await paste(sampleIsbns(1_500, 660_000));
    const unseen = await paste(sampleIsbns(900, 670_000));
    const { rows: admin } = await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM users WHERE email = ${ADMIN.email}`);
    await t.ctx.db.insert(watches).values({
      user_id: must(admin[0], 'the admin').id,
      job_id: unseen,
      conditions: [{ field: 'best_price', operator: 'gte', value: '0' }],
    });
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`SELECT id FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ${unseen} ORDER BY id LIMIT 4`,
    );
    await t.ctx.db.execute(
      sql`UPDATE abe_books_price_lookups SET listing_price = 12 WHERE id = ANY(${sql.param(rows.map((r) => String(r.id)))}::bigint[])`,
    );
    const before = await tuplesRead('abe_books_price_lookups');
    const ids = rows.map((r) => Number(r.id));
    const fired = await t.ctx.db.transaction((tx) => refreshBooksWritten(tx, LOOKUP_TABLES.abe_books, ids));
    expect(fired).toBe(4);
    expect((await tuplesRead('abe_books_price_lookups')) - before).toBeLessThan(100);
  });

  it("finds a batch of ISBNs needing book details by reading about a batch, not the job's rows", async () => {
    const unseen = await paste(sampleIsbns(900, 650_000));
    const before = await tuplesRead('abe_books_price_lookups');
    const isbns = await isbnsNeedingDetails(t.ctx.db, { id: unseen, abe_books: true }, 60_000, 20);
    expect(isbns).toHaveLength(20);
    expect((await tuplesRead('abe_books_price_lookups')) - before).toBeLessThan(100);
  });
});
