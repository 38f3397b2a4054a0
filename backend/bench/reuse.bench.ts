// Reuse of recent answers, on PostgreSQL against the sandbox (in-process, so its request counts can
// be read): a list of 2,000 ISBNs runs through the worker on every marketplace, then a re-uploaded
// list of 2,000 overlapping it by 80 %. Reports the marketplace requests the second list made and
// the share reuse saved (target: the overlap, 0.80), and how fast fully covered lookups are filled:
// a third list of 20,000 ISBNs all answered before, per marketplace, with no request at all.
import { param, sql } from 'drizzle-orm';
import { MARKETPLACE_IDS, MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { openDatabase, type Db } from '../src/db/client.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { benchPostgres, report } from './lib.ts';
import { runWorkerToIdle } from './sandbox-worker.ts';

const LIST = 2000;
const OVERLAP = 0.8;
const COVERED = 20_000;
const CONCURRENCY = 16;

async function seedList(db: Db, owner: string, isbns: string[]): Promise<number> {
  const job = await db.execute<{ id: number }>(
    sql`INSERT INTO jobs (name, input_filename, owner_id) VALUES ('bench', 'b.csv', ${owner}) RETURNING id`,
  );
  const jobId = must(job.rows[0], 'INSERT … RETURNING gives the row').id;
  for (const m of MARKETPLACE_LIST) {
    await db.execute(
      sql`INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn, input_filename) SELECT ${jobId}, unnest(${param(isbns)}::text[]), 'b.csv'`,
    );
    await db.execute(sql`INSERT INTO job_progress (job_id, source, total) VALUES (${jobId}, ${m.id}, ${isbns.length})`);
  }
  return jobId;
}

/** Runs a worker until everything queued is done: its time and the marketplace requests made meanwhile. */
async function runWorker(db: Db, sandbox: Sandbox): Promise<{ ms: number; requests: number }> {
  const before = sandbox.stats().requests;
  const ms = await runWorkerToIdle(db, sandbox.url, CONCURRENCY);
  return { ms, requests: sandbox.stats().requests - before };
}

export async function benchReuse(): Promise<void> {
  const pgDb = await benchPostgres();
  const sandbox = await startMarketplaceSandbox({ latencyMs: 20, noOfferShare: 0.2 });
  const database = await openDatabase({ url: pgDb.url, poolSize: 20 });
  const db = database.db;
  try {
    const user = await db.execute<{ id: string }>(
      sql`INSERT INTO users (email, hashed_password) VALUES ('r@example.com', 'x') RETURNING id`,
    );
    const owner = must(user.rows[0], 'INSERT … RETURNING gives the row').id;
    const first = sampleIsbns(LIST, 50_000);
    await seedList(db, owner, first);
    const asked = await runWorker(db, sandbox);

    const overlap = Math.round(LIST * OVERLAP);
    await seedList(db, owner, [...first.slice(0, overlap), ...sampleIsbns(LIST - overlap, 60_000)]);
    const again = await runWorker(db, sandbox);
    const saved = 1 - again.requests / asked.requests;
    report({
      name: `reuse: re-uploaded list of ${LIST} ISBNs overlapping ${OVERLAP * 100} %, ${MARKETPLACE_IDS.length} marketplaces`,
      value: `${again.requests} marketplace requests vs ${asked.requests} for the first list, ${(saved * 100).toFixed(1)} % saved`,
      ratio: saved,
      target: `≥ ${OVERLAP.toFixed(2)}`,
      ok: saved >= OVERLAP - 0.005,
    });

    // A big list already answered: every lookup is filled from the answers, none asked.
    const covered = sampleIsbns(COVERED, 70_000);
    for (const m of MARKETPLACE_LIST)
      await db.execute(sql`INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn, lookup_status, offers, answered_at)
        SELECT (SELECT min(id) FROM jobs), unnest(${param(covered)}::text[]), 'no_offers_available', '[]'::jsonb, now()`);
    await seedList(db, owner, covered);
    const filled = await runWorker(db, sandbox);
    const perSecond = (COVERED * MARKETPLACE_IDS.length) / (filled.ms / 1000);
    report({
      name: `reuse: list of ${COVERED} ISBNs all answered before, ${MARKETPLACE_IDS.length} marketplaces × concurrency ${CONCURRENCY}`,
      value: `${(filled.ms / 1000).toFixed(1)} s, ${perSecond.toFixed(0)} lookups/s filled, ${filled.requests} requests (a 150k list: ~${((150_000 / perSecond) * MARKETPLACE_IDS.length).toFixed(0)} s on 4 marketplaces)`,
      ok: filled.requests === 0,
      target: '0 requests',
    });
  } finally {
    await database.close();
    await sandbox.close();
    await pgDb.cleanup();
  }
}
