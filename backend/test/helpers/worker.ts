// Test support for the worker suites: throwaway databases, seeded jobs, sandbox-backed settings.
import { randomBytes } from 'node:crypto';
import { MARKETPLACE_IDS, type MarketplaceId } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { eq, sql } from 'drizzle-orm';
import { openTestDatabase } from './databases.ts';
import type { Db } from '../../src/db/client.ts';
import { LOOKUP_TABLES, jobProgress, jobs, users, type LookupTable } from '../../src/db/schema.ts';
import { settingsFromEnv } from '../../src/marketplaces/env.ts';
import { createAdapters, type MarketplaceSettingsMap } from '../../src/marketplaces/registry.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../../src/marketplaces/types.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { startMarketplaceSandbox } from '../../src/marketplaces/sandbox.ts';
import { startWorker } from '../../src/worker/worker.ts';
import { createLogger } from '../../src/core/logging.ts';

export type { TestDatabase } from './databases.ts';

/** A fresh, migrated database for a worker suite (the test suite's helper, with room for many workers). */
export const openWorkerTestDatabase = (kind: 'pglite' | 'pg') => openTestDatabase(kind, { prefix: 'worker_test', poolSize: 20 });

/** A user and a job (updated an hour ago) with one queued row per ISBN and marketplace. */
export async function seedJob(
  db: Db,
  isbns: string[],
  marketplaces: readonly MarketplaceId[] = MARKETPLACE_IDS,
  opts: { ownerId?: string; inputFilename?: string } = {},
): Promise<number> {
  const ownerId = opts.ownerId ?? (await seedUser(db));
  const [job] = await db
    .insert(jobs)
    .values({
      name: 'test',
      input_filename: opts.inputFilename ?? 'isbns.csv',
      owner_id: ownerId,
      updated_at: sql`now() - interval '1 hour'`,
    })
    .returning({ id: jobs.id });
  for (const id of marketplaces) {
    await db.execute(
      sql`INSERT INTO ${LOOKUP_TABLES[id]} (isbn_lookup_job_id, isbn, input_filename)
          SELECT ${job!.id}::int, isbn, 'isbns.csv' FROM jsonb_array_elements_text(${JSON.stringify(isbns)}::jsonb) AS isbn`,
    );
  }
  if (marketplaces.length)
    await db.insert(jobProgress).values(marketplaces.map((source) => ({ job_id: job!.id, source, total: isbns.length })));
  return job!.id;
}

/** A user for seeded jobs; its id. */
export async function seedUser(db: Db): Promise<string> {
  const email = `worker-${randomBytes(6).toString('hex')}@example.com`;
  const [user] = await db.insert(users).values({ email, hashed_password: 'x' }).returning({ id: users.id });
  return must(user, 'the inserted user').id;
}

/** A lookup row with its data columns (the schema builds those from the field tables, untyped). */
export type LookupRow = LookupTable['$inferSelect'] & { offers: unknown[] | null; [column: string]: unknown };

export async function lookupRows(db: Db, id: MarketplaceId, jobId: number): Promise<LookupRow[]> {
  const t = LOOKUP_TABLES[id];
  return (await db.select().from(t).where(eq(t.isbn_lookup_job_id, jobId)).orderBy(t.id)) as LookupRow[];
}

/** Settings for every marketplace pointed at the sandbox, fast unless overridden. */
export function sandboxSettings(sandbox: Sandbox, over: Partial<MarketplaceSettings> = {}): MarketplaceSettingsMap {
  const settings = settingsFromEnv({}, { sandboxUrl: sandbox.url });
  for (const id of MARKETPLACE_IDS) {
    const rates = settings[id].operationRates;
    const fast = rates ? { operationRates: Object.fromEntries(Object.keys(rates).map((op) => [op, 1000])) } : {};
    settings[id] = { ...settings[id], ratePerSecond: 1000, ...fast, concurrency: 4, timeoutMs: 2000, ...over };
  }
  return settings;
}

/** Worker logs in tests: warnings and errors show (a test that fails says why), routine lines do not. */
export const workerTestLog = createLogger({ level: 'warn', name: 'worker' });

/** Records the jobs a worker reports as moved (live/ sends them as NOTIFY; worker suites only read them). */
export class TouchedJobs {
  readonly ids = new Set<number>();
  touched(jobIds: number | readonly number[]): void {
    for (const id of typeof jobIds === 'number' ? [jobIds] : jobIds) this.ids.add(id);
  }
}

/** Adapters, settings, a log and a job-events recorder for some marketplaces only, ready for startWorker. */
export function sandboxWorkerParts(sandbox: Sandbox, marketplaces: readonly MarketplaceId[], over: Partial<MarketplaceSettings> = {}) {
  const settings = sandboxSettings(sandbox, over);
  const all = createAdapters(settings);
  const adapters: Partial<Record<MarketplaceId, MarketplaceAdapter>> = {};
  for (const id of marketplaces) adapters[id] = all[id];
  return { adapters, settings, log: workerTestLog, jobEvents: new TouchedJobs() };
}

/** Gaps (ms) between consecutive calls the sandbox saw for one marketplace and ISBN. */
export function callGaps(sandbox: Sandbox, id: MarketplaceId, isbn: string): number[] {
  const times = sandbox.stats().calls[`${id}:${isbn}`] ?? [];
  return times.slice(1).map((t, i) => t - times[i]!);
}

/** Runs a worker over every marketplace against a fresh sandbox (every ISBN has offers) until nothing is queued. */
export async function runSandboxWorkerToIdle(db: Db): Promise<void> {
  const sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0 });
  try {
    const worker = startWorker({ db, pollIntervalMs: 20, ...sandboxWorkerParts(sandbox, MARKETPLACE_IDS) });
    await worker.idle();
    await worker.stop();
  } finally {
    await sandbox.close();
  }
}
