// Test support for the worker suites: throwaway databases, seeded jobs, sandbox-backed settings.
import { randomBytes } from 'node:crypto';
import { MARKETPLACE_IDS, MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { openTestDatabase } from '../../test/helpers/databases.ts';
import type { Database } from '../db/client.ts';
import { createAdapters, settingsFromEnv, type MarketplaceSettingsMap } from '../marketplaces/registry.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../marketplaces/types.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { must } from '@app/domain/must';

export type { TestDatabase } from '../../test/helpers/databases.ts';

/** A fresh, migrated database for a worker suite (the test suite's helper, with room for many workers). */
export const openWorkerTestDatabase = (kind: 'pglite' | 'pg') => openTestDatabase(kind, { prefix: 'worker_test', poolSize: 20 });

/** A user and a job (updated an hour ago) with one queued row per ISBN and marketplace. */
export async function seedJob(db: Database, isbns: string[], marketplaces: readonly MarketplaceId[] = MARKETPLACE_IDS): Promise<number> {
  const email = `worker-${randomBytes(6).toString('hex')}@example.com`;
  const { rows: users } = await db.query<{ id: string }>(`INSERT INTO users (email, hashed_password) VALUES ($1, 'x') RETURNING id`, [email]);
  const { rows: jobs } = await db.query<{ id: number }>(
    `INSERT INTO jobs (name, input_filename, owner_id, updated_at) VALUES ('test', 'isbns.csv', $1, now() - interval '1 hour') RETURNING id`,
    [must(users[0], 'INSERT … RETURNING gives the user').id],
  );
  const jobId = must(jobs[0], 'INSERT … RETURNING gives the job').id;
  for (const id of marketplaces) {
    await db.query(
      `INSERT INTO ${MARKETPLACES[id].table} (isbn_lookup_job_id, isbn, input_filename)
       SELECT $1, isbn, 'isbns.csv' FROM jsonb_array_elements_text($2::jsonb) AS isbn`,
      [jobId, JSON.stringify(isbns)],
    );
  }
  await db.query(`INSERT INTO job_progress (job_id, source, total) SELECT $1, unnest($2::text[]), $3`, [jobId, [...marketplaces], isbns.length]);
  return jobId;
}

export interface LookupRow {
  id: number;
  isbn: string;
  lookup_status: string;
  attempts: number;
  last_error: string | null;
  offers: unknown[] | null;
  next_attempt_at: Date;
  [column: string]: unknown;
}

export async function lookupRows(db: Database, id: MarketplaceId, jobId: number): Promise<LookupRow[]> {
  const { rows } = await db.query<LookupRow>(`SELECT * FROM ${MARKETPLACES[id].table} WHERE isbn_lookup_job_id = $1 ORDER BY id`, [jobId]);
  return rows;
}

/** Settings for every marketplace pointed at the sandbox, fast unless overridden. */
export function sandboxSettings(sandbox: Sandbox, over: Partial<MarketplaceSettings> = {}): MarketplaceSettingsMap {
  const settings = settingsFromEnv({}, { sandboxUrl: sandbox.url });
  for (const id of MARKETPLACE_IDS) settings[id] = { ...settings[id], ratePerSecond: 1000, concurrency: 4, timeoutMs: 2000, ...over };
  return settings;
}

/** Adapters and settings for some marketplaces only, ready for startWorker. */
export function sandboxWorkerParts(sandbox: Sandbox, marketplaces: readonly MarketplaceId[], over: Partial<MarketplaceSettings> = {}) {
  const settings = sandboxSettings(sandbox, over);
  const all = createAdapters(settings);
  const adapters: Partial<Record<MarketplaceId, MarketplaceAdapter>> = {};
  for (const id of marketplaces) adapters[id] = all[id];
  return { adapters, settings };
}

/** Gaps (ms) between consecutive calls the sandbox saw for one marketplace and ISBN. */
export function callGaps(sandbox: Sandbox, id: MarketplaceId, isbn: string): number[] {
  const times = sandbox.stats().calls[`${id}:${isbn}`] ?? [];
  return times.slice(1).map((t, i) => t - must(times[i], 'the call before'));
}
