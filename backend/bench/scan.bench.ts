// The scan page's speed (issue 31), measured as the product runs:
// 1. Scan to verdict from stored answers: 20 scanners at once, each in their own session, scanning
//    books the team answered within the reuse window, through HTTP to the API; p50/p95 of POST
//    /scan/sessions/{id}/scans, beside the SQL its verdict runs (EXPLAIN ANALYZE). On PostgreSQL with
//    SCAN_BENCH_ISBNS answered ISBNs (default 1M) × 6 marketplaces, and on PGlite with 150k.
// 2. Live confirmation: a 150k-ISBN job queued on every marketplace, the in-process worker running
//    at the marketplaces' default rates against the sandbox; a scan of a book nobody answered yet:
//    how long until each marketplace's lookup of it is claimed, beside that marketplace's rate interval.
import { setTimeout as sleep } from 'node:timers/promises';
import { DECISION_SOURCES, PRICE_SOURCES } from '@app/domain/comparison';
import { MARKETPLACE_LIST, MARKETPLACES } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database, type Db } from '../src/db/client.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { createAdapters } from '../src/marketplaces/registry.ts';
import { settingsFromEnv } from '../src/marketplaces/env.ts';
import { JobEvents } from '../src/core/job-events.ts';
import { createLogger } from '../src/core/logging.ts';
import { startWorker } from '../src/worker/worker.ts';
import { productRoutes } from '../src/routes.ts';
import { findSession } from '../src/scan/repository.ts';
import { readVerdicts } from '../src/scan/verdict.ts';
import { readRuleSetVersion } from '../src/rules/repository.ts';
import { createUser, userByEmail } from '../src/users/repository.ts';
import { benchContext } from './context.ts';
import { benchPostgres, now, percentile, report, timed } from './lib.ts';

const SCANNERS = 20;
const SCANS_EACH = 25;
const ISBN_SQL = sql.raw(`'978' || lpad(g::text, 10, '0')`);

/** `n` answered ISBNs (978 + 10 digits; no check digit needed in the tables) in every marketplace, in one job of the team's. */
async function seedAnswers(db: Db, ownerId: string, n: number): Promise<void> {
  const { rows } = await db.execute<{ id: number }>(
    sql`INSERT INTO jobs (name, input_filename, owner_id, comparison_stored) VALUES ('answers', 'answers.csv', ${ownerId}, true) RETURNING id`,
  );
  const job = must(rows[0], 'the job').id;
  for (const m of MARKETPLACE_LIST) {
    const source = PRICE_SOURCES.find((s) => s.marketplace === m.id);
    const cols: string[] = [];
    const vals: string[] = [];
    if (source) {
      cols.push(must(source.price[0], 'a price column'));
      vals.push('3 + (g::bigint * 7919 % 9000) / 100.0');
      if (source.shipping) {
        cols.push(source.shipping);
        vals.push('3.5');
      }
      if (source.currency) {
        cols.push(source.currency);
        vals.push(`'USD'`);
      }
    }
    if (m.id === 'amazon') {
      cols.push('sales_rank');
      vals.push('(g::bigint * 104729 % 2000000)');
    }
    const advice = DECISION_SOURCES.find((d) => d.marketplace === m.id);
    if (advice) {
      cols.push(advice.decision, advice.value);
      vals.push(`CASE WHEN g % 3 = 0 THEN 'accept' ELSE 'reject' END`, '(g % 5000) / 100.0');
    }
    const extra = cols.length ? `, ${cols.join(', ')}` : '';
    const extraVals = vals.length ? `, ${vals.join(', ')}` : '';
    // In slices, so one statement never holds a million rows' worth of index work at once.
    for (let from = 1; from <= n; from += 200_000) {
      const to = Math.min(n, from + 199_999);
      await db.execute(sql`
        INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn, input_filename, lookup_status, attempts, offers, offer_count, answered_at${sql.raw(extra)})
        SELECT ${job}::int, ${ISBN_SQL}, 'answers.csv', 'completed', 1, '[]'::jsonb, 3, now() - (g % 36000) * interval '1 second'${sql.raw(extraVals)}
        FROM generate_series(${from}::int, ${to}::int) g`);
    }
    await db.execute(sql`ANALYZE ${sql.identifier(m.table)}`);
  }
}

/** A valid ISBN-13 of the seeded range (its check digit computed): what a scanner reads off a book. */
function isbnOf(g: number): string {
  const body = `978${String(g).padStart(9, '0')}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

async function scanLoad(engine: string, database: Database, url: string | undefined, answered: number): Promise<void> {
  const db = database.db;
  const { ctx, admin } = await benchContext(database, url);
  await seedAnswers(db, admin.id, answered);
  await db.execute(sql`INSERT INTO rule_sets (owner_id, name, is_team_default) VALUES (${admin.id}, 'Floor', true)`);
  await db.execute(
    sql`INSERT INTO rule_set_versions (rule_set_id, version, rules) SELECT id, 1, ${JSON.stringify([
      { outcome: 'Buy', color: 'green', conditions: [{ field: 'estimated_profit', operator: 'gte', value: 5 }] },
      { outcome: 'List', color: 'blue', conditions: [{ field: 'amazon_sales_rank', operator: 'lte', value: 500000 }] },
    ])}::jsonb FROM rule_sets WHERE name = 'Floor'`,
  );
  const app = await buildApp(ctx, { routes: productRoutes });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const scanners = await Promise.all(
      Array.from({ length: SCANNERS }, async (_, i) => {
        const user = await createUser(db, { email: `scanner-${engine}-${i}@example.com`, password: 'bench-password' });
        const token = await ctx.tokens.createAccessToken(user);
        const res = await fetch(`${base}/api/v1/scan/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        return { token, session: ((await res.json()) as { id: number }).id };
      }),
    );
    // One scanner alone first: what a scan costs without waiting on others.
    const alone: number[] = [];
    const solo = must(scanners[0], 'a scanner');
    for (let k = 0; k < 30; k++) {
      const start = now();
      await fetch(`${base}/api/v1/scan/sessions/${solo.session}/scans`, {
        method: 'POST',
        headers: { authorization: `Bearer ${solo.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ code: isbnOf(1 + ((k * 104_729) % Math.floor(answered / 10))) }),
      });
      alone.push(now() - start);
    }
    alone.sort((a, b) => a - b);
    console.log(
      `  one scanner alone: p50 ${percentile(alone, 50).toFixed(0)} ms, p95 ${percentile(alone, 95).toFixed(0)} ms over ${alone.length} scans`,
    );
    // Each book is ISBN 978 + the seeded number; the scans pick them at random across the whole range.
    const scanAll = async (pace: number) => {
      const latencies: number[] = [];
      let finals = 0;
      const started = now();
      await Promise.all(
        scanners.map(async (s, i) => {
          // People do not start in step: each scanner's first book comes within the first pace.
          if (pace) await sleep(Math.random() * pace);
          for (let k = 0; k < SCANS_EACH; k++) {
            const g = 1 + (((i * SCANS_EACH + k + pace) * 7_919_111) % Math.floor(answered / 10));
            const start = now();
            const res = await fetch(`${base}/api/v1/scan/sessions/${s.session}/scans`, {
              method: 'POST',
              headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ code: isbnOf(g) }),
            });
            const body = (await res.json()) as { verdict?: { state: string } };
            const took = now() - start;
            latencies.push(took);
            if (body.verdict?.state === 'final') finals++;
            if (pace) await sleep(Math.max(0, pace - took));
          }
        }),
      );
      return { latencies: latencies.sort((a, b) => a - b), finals, seconds: (now() - started) / 1000 };
    };
    // A scout handles a book a second at best (picks it up, scans, reads the verdict, puts it down).
    const paced = await scanAll(1000);
    const p95 = percentile(paced.latencies, 95);
    report({
      name: `scan: verdict from stored answers, ${SCANNERS} scanners at once each scanning a book a second, ${answered.toLocaleString('en-US')} answered ISBNs × ${MARKETPLACE_LIST.length} marketplaces (${engine})`,
      value: `p50 ${percentile(paced.latencies, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms over ${paced.latencies.length} scans (${paced.finals} final at once)`,
      ratio: p95 / 150,
      target: 'p95 ≤ 150 ms',
      ok: p95 <= 150,
    });
    // Flat out: every scanner sends its next scan as soon as the last is answered (the capacity).
    const flat = await scanAll(0);
    console.log(
      `  flat out (no pause between scans): ${(flat.latencies.length / flat.seconds).toFixed(0)} scans/s, p50 ${percentile(flat.latencies, 50).toFixed(0)} ms, p95 ${percentile(flat.latencies, 95).toFixed(0)} ms`,
    );
    // The verdict's own statement, as the API runs it for one scan.
    const first = must(scanners[0], 'a scanner');
    const me = await userByEmail(db, `scanner-${engine}-0@example.com`);
    const job = await findSession(db, must(me, 'the scanner'), first.session);
    const version = job.rule_set_version_id ? await readRuleSetVersion(db, job.rule_set_version_id) : undefined;
    const isbn = isbnOf(4242);
    const { ms } = await timed(() => readVerdicts(db, job, [isbn], {}, version));
    console.log(
      `  verdict statement for one ISBN: ${ms.toFixed(1)} ms (readVerdicts: backend/src/scan/verdict.ts over comparisonTable, comparison/query.ts)`,
    );
  } finally {
    await app.close();
  }
}

/** How long a scan of an unanswered book waits to be claimed by each marketplace while a 150k-ISBN job is queued. */
async function liveConfirmation(): Promise<void> {
  const pg = await benchPostgres();
  const database = await openDatabase({ url: pg.url, poolSize: 20 });
  const db = database.db;
  const sandbox = await startMarketplaceSandbox({ latencyMs: 50 });
  try {
    const { ctx, admin } = await benchContext(database, pg.url);
    const bulk = 150_000;
    const { rows } = await db.execute<{ id: number }>(
      sql`INSERT INTO jobs (name, input_filename, owner_id, ${sql.raw(MARKETPLACE_LIST.map((m) => m.id).join(', '))})
          VALUES ('bulk', 'bulk.csv', ${admin.id}, ${sql.raw(MARKETPLACE_LIST.map(() => 'true').join(', '))}) RETURNING id`,
    );
    const bulkJob = must(rows[0], 'the job').id;
    for (const m of MARKETPLACE_LIST) {
      await db.execute(sql`INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn, input_filename)
        SELECT ${bulkJob}::int, ${ISBN_SQL}, 'bulk.csv' FROM generate_series(5000001, ${5_000_000 + bulk}::int) g`);
      await db.execute(sql`INSERT INTO job_progress (job_id, source, total) VALUES (${bulkJob}, ${m.id}, ${bulk})`);
      await db.execute(sql`ANALYZE ${sql.identifier(m.table)}`);
    }
    const app = await buildApp(ctx, { routes: productRoutes });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const token = await ctx.tokens.createAccessToken(admin);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const claimedAt = new Map<string, number>();
    let scannedAt = 0;
    // The worker as `npm start` runs it: every marketplace at its default rate and concurrency.
    const settings = settingsFromEnv({}, { sandboxUrl: sandbox.url });
    const log = createLogger({ level: 'warn', name: 'worker' });
    const jobEvents = new JobEvents(db, 250, log);
    const worker = startWorker({ db, adapters: createAdapters(settings), settings, log, jobEvents, listen: database.listen });
    // Let the worker get going on the bulk job first.
    await sleep(3000);
    const session = (await (await fetch(`${base}/api/v1/scan/sessions`, { method: 'POST', headers, body: '{}' })).json()) as { id: number };
    const code = isbnOf(777_777_777 % 1_000_000_000);
    const posted = now();
    await fetch(`${base}/api/v1/scan/sessions/${session.id}/scans`, { method: 'POST', headers, body: JSON.stringify({ code }) });
    // From the answer: the lookups are queued (and announced) as the scan's transaction commits, just before it.
    scannedAt = now();
    console.log(
      `  the scan itself (provisional verdict) answered in ${(scannedAt - posted).toFixed(0)} ms while the worker ran the bulk job`,
    );
    while (claimedAt.size < MARKETPLACE_LIST.length && now() - scannedAt < 60_000) {
      for (const m of MARKETPLACE_LIST) {
        if (claimedAt.has(m.id)) continue;
        const { rows: r } = await db.execute<{ s: string }>(
          sql`SELECT lookup_status AS s FROM ${sql.identifier(m.table)} WHERE isbn_lookup_job_id = ${session.id} AND isbn = ${code}`,
        );
        if (r[0] && r[0].s !== 'queued') claimedAt.set(m.id, now() - scannedAt);
      }
      await sleep(20);
    }
    await worker.stop();
    await jobEvents.close();
    for (const m of MARKETPLACE_LIST) {
      const rate = settings[m.id].ratePerSecond;
      const interval = 1000 / rate;
      const waited = claimedAt.get(m.id);
      report({
        name: `scan: live lookup of a new book claimed while a ${bulk.toLocaleString('en-US')}-ISBN job is queued, ${MARKETPLACES[m.id].label} (PostgreSQL, default rate)`,
        value:
          waited === undefined
            ? 'not claimed within 60 s'
            : `${waited.toFixed(0)} ms after the scan (rate interval ${interval.toFixed(0)} ms)`,
        ratio: waited === undefined ? undefined : waited / interval,
        target: `≤ ${interval.toFixed(0)} ms`,
        ok: waited !== undefined && waited <= interval,
      });
    }
    await app.close();
  } finally {
    await sandbox.close();
    await database.close();
    await pg.cleanup();
  }
}

export async function benchScan(): Promise<void> {
  const answered = Number(process.env.SCAN_BENCH_ISBNS ?? 1_000_000);
  const pg = await benchPostgres();
  const database = await openDatabase({ url: pg.url, poolSize: 20 });
  try {
    const { ms } = await timed(() => scanLoad('PostgreSQL', database, pg.url, answered));
    console.log(`  (PostgreSQL run, seeding included: ${(ms / 1000).toFixed(0)} s)`);
  } finally {
    await database.close();
    await pg.cleanup();
  }
  const embedded = await openDatabase({});
  try {
    await scanLoad('PGlite', embedded, undefined, Number(process.env.SCAN_BENCH_PGLITE_ISBNS ?? 150_000));
  } finally {
    await embedded.close();
  }
  await liveConfirmation();
}
