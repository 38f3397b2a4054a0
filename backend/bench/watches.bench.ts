// Watches' cost in the write-back (issue 34: a 150k-row re-price with 1,000 watches adds ≤ 20 % to
// the write-back time), on PostgreSQL. One job of 150,000 ISBNs on AbeBooks is answered once, then
// re-priced BENCH_WATCHES_PASSES times (4), alternately without watches and with 1,000 (by 20 users:
// 800 book watches on random books of the job, 10 job watches on it and 190 on 19 other jobs;
// conditions of a price level, a price drop, a rank), each time with a tenth of the books at a new
// price (or every book: BENCH_WATCHES_PRICE_MOVES=all), so watches fire and re-arm as they would.
// Only the write-back (LookupQueue.finish, batches of the worker's default 50) is timed: the claims
// and marketplace calls around it do not change with watches. Reports the median of each kind's
// passes, their ratio, and the machine's load average (the figures move with it).
import { loadavg } from 'node:os';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { param, sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../src/db/client.ts';
import { insertEmptyComparisonRows } from '../src/db/comparison-rows.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { LookupQueue } from '../src/worker/queue.ts';
import { benchPostgres, now, report } from './lib.ts';

/** The job's ISBNs (BENCH_WATCHES_ROWS, for a quicker look while iterating; the target is stated at 150,000). */
const ROWS = Number(process.env.BENCH_WATCHES_ROWS ?? 150_000);
const WATCHES = { book: 800, onTheJob: 10, otherJobs: 190, users: 20 };
const BATCH = 50;
/** Timed passes, alternately without and with watches (each ~5 minutes on a loaded 2-core machine). */
const PASSES = Number(process.env.BENCH_WATCHES_PASSES ?? 4);
/** Settle new watches with an untimed re-price first (BENCH_WATCHES_WARM_UP=true): the steady state, without the first burst of alerts. */
const WARM_UP = process.env.BENCH_WATCHES_WARM_UP === 'true';
/** `all`: every book's price moves each pass (the worst case); else a tenth of them do. */
const PRICE_MOVES = process.env.BENCH_WATCHES_PRICE_MOVES === 'all' ? 'all' : 'tenth';

async function seedJob(db: Db, owner: string, isbns: string[]): Promise<number> {
  const job = await db.execute<{ id: number }>(
    sql`INSERT INTO jobs (name, input_filename, owner_id, abe_books, comparison_stored) VALUES ('bench', 'b.csv', ${owner}, true, true) RETURNING id`,
  );
  const jobId = must(job.rows[0], 'INSERT … RETURNING gives the row').id;
  await db.execute(
    sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, input_filename) SELECT ${jobId}, unnest(${param(isbns)}::text[]), 'b.csv'`,
  );
  await db.execute(sql`INSERT INTO job_progress (job_id, source, total) VALUES (${jobId}, 'abe_books', ${isbns.length})`);
  await db.execute(
    insertEmptyComparisonRows(jobId, sql`(SELECT id, isbn FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ${jobId}) base`),
  );
  await db.execute(sql`ANALYZE`);
  return jobId;
}

/** A price drawn for the book at `pass` (5–45 dollars). */
const draw = (isbn: string, pass: number) => 5 + ((Number(isbn.slice(-6)) * 7919 + pass * 104_729) % 4000) / 100;

/**
 * The book's price at `pass`: with PRICE_MOVES ('all') every book is drawn anew each pass (every
 * price moves, so job watches fire on thousands of books: the worst case); by default a tenth of the
 * books move each pass and the rest keep their price, as a re-price finds the market.
 */
function priceOf(isbn: string, pass: number): number {
  if (PRICE_MOVES === 'all') return draw(isbn, pass);
  for (let q = pass; q > 0; q--) if ((Number(isbn.slice(-6)) * 31 + q * 17) % 10 === 0) return draw(isbn, q);
  return draw(isbn, 0);
}

/** Every row of the job answered at a price drawn for `pass` (5–45 dollars) in batches of `batch`; returns the time spent in write-backs. */
async function answerAll(db: Db, pass: number, batch = BATCH): Promise<number> {
  const queue = new LookupQueue(db, MARKETPLACES.abe_books);
  let ms = 0;
  for (;;) {
    const claimed = await queue.claim(batch, 600_000);
    if (claimed.length === 0) return ms;
    const rows = claimed.map((r) => ({
      id: r.id,
      attempts: r.attempts,
      status: 'completed' as const,
      last_error: null,
      offers: [{}],
      record: { listing_price: priceOf(r.isbn, pass), title: `Book ${r.isbn}` },
    }));
    const start = now();
    await queue.finish(rows);
    ms += now() - start;
  }
}

async function reprice(db: Db, jobId: number): Promise<void> {
  await db.execute(
    sql`UPDATE abe_books_price_lookups SET lookup_status = 'queued', attempts = 0, next_attempt_at = now() WHERE isbn_lookup_job_id = ${jobId}`,
  );
  await db.execute(sql`UPDATE job_progress SET processed = 0 WHERE job_id = ${jobId}`);
}

const CONDITIONS = [
  [{ field: 'best_price', operator: 'gte', value: '40' }],
  [{ field: 'best_price_change', operator: 'lte', value: '-5' }],
  [
    { field: 'best_price', operator: 'gte', value: '20' },
    { field: 'amazon_sales_rank', operator: 'lte', value: '300000' },
  ],
];

async function addWatches(db: Db, users: string[], jobId: number, otherJobs: number[], isbns: string[]): Promise<void> {
  const rows: { user_id: string; isbn: string | null; job_id: number | null; conditions: unknown }[] = [];
  const user = (i: number) => must(users[i % users.length], 'a user');
  const conditions = (i: number) => CONDITIONS[i % CONDITIONS.length];
  for (let i = 0; i < WATCHES.book; i++)
    rows.push({ user_id: user(i), isbn: must(isbns[(i * 7_919) % isbns.length], 'an ISBN'), job_id: null, conditions: conditions(i) });
  for (let i = 0; i < WATCHES.onTheJob; i++) rows.push({ user_id: user(i), isbn: null, job_id: jobId, conditions: conditions(i) });
  for (let i = 0; i < WATCHES.otherJobs; i++)
    rows.push({ user_id: user(i), isbn: null, job_id: must(otherJobs[i % otherJobs.length], 'a job'), conditions: conditions(i) });
  await db.execute(sql`INSERT INTO watches (user_id, isbn, job_id, conditions)
    SELECT user_id, isbn, job_id, conditions FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(user_id uuid, isbn text, job_id int, conditions jsonb)`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return must(s[Math.floor(s.length / 2)], 'a pass');
};

export async function benchWatches(): Promise<void> {
  const pgDb = await benchPostgres();
  const database = await openDatabase({ url: pgDb.url, poolSize: 5 });
  const db = database.db;
  try {
    const { rows: users } = await db.execute<{ id: string }>(
      sql`INSERT INTO users (email, hashed_password) SELECT 'u' || i || '@example.com', 'x' FROM generate_series(1, ${WATCHES.users}) i RETURNING id`,
    );
    const owner = must(users[0], 'a user').id;
    const isbns = sampleIsbns(ROWS, 1_000_000);
    const jobId = await seedJob(db, owner, isbns);
    const otherJobs: number[] = [];
    for (let j = 0; j < 19; j++) otherJobs.push(await seedJob(db, owner, sampleIsbns(10, 2_000_000 + j * 10)));
    // The first answers (not timed, in big batches): every later pass has a previous price, as a re-price does.
    await answerAll(db, 0, 1000);
    const times: Record<'without' | 'with', number[]> = { without: [], with: [] };
    const passes: string[] = [];
    let fired = 0;
    const kinds = Array.from({ length: PASSES }, (_, i) => (i % 2 ? 'with' : 'without') as 'with' | 'without');
    // Each write-back draws its prices for a round of its own, so every one moves some.
    let round = 0;
    for (const kind of kinds) {
      if (kind === 'with') {
        await addWatches(
          db,
          users.map((u) => u.id),
          jobId,
          otherJobs,
          isbns,
        );
        if (WARM_UP) {
          // A new watch fires for every book already meeting it: settled by one re-price, not timed.
          await reprice(db, jobId);
          await answerAll(db, ++round, 1000);
          await db.execute(sql`DELETE FROM notifications`);
        }
      }
      await reprice(db, jobId);
      times[kind].push(await answerAll(db, ++round));
      // The 1-minute load average as each pass ends: on a shared machine passes side by side are only comparable at a like load.
      passes.push(`${kind} ${(must(times[kind].at(-1), 'this pass') / 1000).toFixed(1)} s at load ${loadavg()[0]?.toFixed(1)}`);
      if (kind === 'with') {
        fired += Number(must((await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM notifications`)).rows[0], 'a count').n);
        await db.execute(sql`DELETE FROM notifications`);
        await db.execute(sql`DELETE FROM watches`);
      }
    }
    const [without, withWatches] = [median(times.without), median(times.with)];
    const overhead = withWatches / without - 1;
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ');
    report({
      name: `watches: write-back of a ${ROWS.toLocaleString('en')}-row re-price (batches of ${BATCH}, ${PRICE_MOVES === 'all' ? 'every' : 'a tenth of the'} price${PRICE_MOVES === 'all' ? '' : 's'} moving${WARM_UP ? ', watches settled by an untimed re-price' : ', watches new'}), 0 vs 1,000 watches (${WATCHES.book} book, ${WATCHES.onTheJob} on the job, ${WATCHES.otherJobs} on other jobs)`,
      value: `${(without / 1000).toFixed(1)} s vs ${(withWatches / 1000).toFixed(1)} s (passes in order: ${passes.join(', ')}), +${(overhead * 100).toFixed(1)} %, ${fired} alerts; load average ${load}`,
      ratio: withWatches / without,
      target: '≤ 1.20',
      ok: overhead <= 0.2,
    });
  } finally {
    await database.close();
    await pgDb.cleanup();
  }
}
