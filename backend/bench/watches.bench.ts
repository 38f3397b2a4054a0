// Watches' cost in the write-back (issue 34: a 150k-row re-price with 1,000 watches adds ≤ 20 % to
// the write-back time), on PostgreSQL. Two twin databases hold the same job of 150,000 ISBNs on
// AbeBooks, answered once; one of them also has 1,000 watches (by 20 users: 800 book watches on
// random books of the job, 10 job watches on it and 190 on 19 other jobs; conditions of a price
// level, a price drop, a rank). Each pass re-prices the job in both, a tenth of the books at a new
// price (or every book: BENCH_WATCHES_PRICE_MOVES=all), so watches fire and re-arm as they would,
// and writes the answers back batch by batch, in turn: a batch in one twin, then the same batch in
// the other. Passes run one after the other on a shared machine drift by a third between identical
// runs (measured: 9.1 to 14.6 s for one pass without watches), more than the effect measured; in
// turn, both sides meet the same machine. Only the write-back (LookupQueue.finish, batches of the
// worker's default 50) is timed: the claims and marketplace calls around it do not change with
// watches. Reports each pass's two times, the medians, their ratio, and the load average.
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
/** Timed passes, each a re-price of both twins in turn. */
const PASSES = Number(process.env.BENCH_WATCHES_PASSES ?? 3);
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

/** A twin's next batch of the job answered at the prices drawn for `pass`, timed; null when none is left. */
async function answerBatch(queue: LookupQueue, pass: number, batch: number): Promise<number | null> {
  const claimed = await queue.claim(batch, 600_000);
  if (claimed.length === 0) return null;
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
  return now() - start;
}

/** Every row of the job in each twin answered at the prices drawn for `pass`, a batch in each in turn (who goes first alternates); the time each spent in write-backs. */
async function answerInTurn(twins: readonly Twin[], pass: number, batch = BATCH): Promise<number[]> {
  const queues = twins.map((t) => new LookupQueue(t.db, MARKETPLACES.abe_books));
  const ms = twins.map(() => 0);
  const done = twins.map(() => false);
  for (let round = 0; !done.every(Boolean); round++) {
    for (let k = 0; k < twins.length; k++) {
      const i = (k + round) % twins.length;
      if (done[i]) continue;
      const took = await answerBatch(must(queues[i], 'a queue'), pass, batch);
      if (took === null) done[i] = true;
      else ms[i] = must(ms[i], 'a time') + took;
    }
  }
  return ms;
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

/** One of the two databases: the same users, job and answers; only one gets watches. */
type Twin = { db: Db; users: string[]; jobId: number; otherJobs: number[]; close: () => Promise<void> };

async function openTwin(isbns: string[]): Promise<Twin> {
  const pgDb = await benchPostgres();
  const database = await openDatabase({ url: pgDb.url, poolSize: 5 });
  const db = database.db;
  const { rows: users } = await db.execute<{ id: string }>(
    sql`INSERT INTO users (email, hashed_password) SELECT 'u' || i || '@example.com', 'x' FROM generate_series(1, ${WATCHES.users}) i RETURNING id`,
  );
  const owner = must(users[0], 'a user').id;
  const jobId = await seedJob(db, owner, isbns);
  const otherJobs: number[] = [];
  for (let j = 0; j < 19; j++) otherJobs.push(await seedJob(db, owner, sampleIsbns(10, 2_000_000 + j * 10)));
  const close = async () => {
    await database.close();
    await pgDb.cleanup();
  };
  return { db, users: users.map((u) => u.id), jobId, otherJobs, close };
}

const alerts = async (db: Db) =>
  Number(must((await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM notifications`)).rows[0], 'a count').n);

export async function benchWatches(): Promise<void> {
  const isbns = sampleIsbns(ROWS, 1_000_000);
  const twins: Twin[] = [];
  try {
    twins.push(await openTwin(isbns), await openTwin(isbns));
    const watched = must(twins[1], 'the watched twin');
    // The first answers (not timed, in big batches): every later pass has a previous price, as a re-price does.
    await answerInTurn(twins, 0, 1000);
    await addWatches(watched.db, watched.users, watched.jobId, watched.otherJobs, isbns);
    let round = 0;
    if (WARM_UP) {
      // A new watch fires for every book already meeting it: settled by one re-price of both, not timed.
      for (const t of twins) await reprice(t.db, t.jobId);
      await answerInTurn(twins, ++round, 1000);
      await watched.db.execute(sql`DELETE FROM notifications`);
    }
    const times: Record<'without' | 'with', number[]> = { without: [], with: [] };
    const passes: string[] = [];
    let fired = 0;
    for (let pass = 0; pass < PASSES; pass++) {
      for (const t of twins) await reprice(t.db, t.jobId);
      // Each pass draws its prices for a round of its own, so every one moves some.
      const [a, b] = (await answerInTurn(twins, ++round)) as [number, number];
      times.without.push(a);
      times.with.push(b);
      // The 1-minute load average as each pass ends.
      passes.push(`${(a / 1000).toFixed(1)} s vs ${(b / 1000).toFixed(1)} s (${(b / a).toFixed(2)}×) at load ${loadavg()[0]?.toFixed(1)}`);
      fired += await alerts(watched.db);
      await watched.db.execute(sql`DELETE FROM notifications`);
    }
    const [withoutMs, withMs] = [median(times.without), median(times.with)];
    const overhead = withMs / withoutMs - 1;
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ');
    report({
      name: `watches: write-back of a ${ROWS.toLocaleString('en')}-row re-price (batches of ${BATCH} in turn in twin databases, ${PRICE_MOVES === 'all' ? 'every' : 'a tenth of the'} price${PRICE_MOVES === 'all' ? '' : 's'} moving${WARM_UP ? ', watches settled by an untimed re-price' : ', watches new'}), 0 vs 1,000 watches (${WATCHES.book} book, ${WATCHES.onTheJob} on the job, ${WATCHES.otherJobs} on other jobs)`,
      value: `${(withoutMs / 1000).toFixed(1)} s vs ${(withMs / 1000).toFixed(1)} s (medians; each pass without vs with: ${passes.join(', ')}), +${(overhead * 100).toFixed(1)} %, ${fired} alerts; load average ${load}`,
      ratio: withMs / withoutMs,
      target: '≤ 1.20',
      ok: overhead <= 0.2,
    });
  } finally {
    for (const t of twins) await t.close();
  }
}
