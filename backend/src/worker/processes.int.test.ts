// Real worker processes (`npm run worker`'s entry point) sharing one PostgreSQL database.
import { sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKETPLACE_IDS, MARKETPLACES } from '@app/domain/marketplaces';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { marketplaceRegistry } from '../marketplaces/registry.ts';
import { sampleIsbns } from '../sandbox/isbns.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { startMarketplaceSandbox } from '../marketplaces/sandbox.ts';
import { builtEntry, marketplaceEnv, spawnProcess, type SpawnedProcess } from '../../test/helpers/spawn.ts';
import { lookupRows, openWorkerTestDatabase, sandboxWorkerParts, seedJob, type TestDatabase } from '../../test/helpers/worker.ts';
import { startWorker } from './worker.ts';
import { must } from '@app/domain/must';

const spawnWorker = (env: Record<string, string>) => spawnProcess(builtEntry('worker'), env, ' serving ');

async function unfinished(t: TestDatabase, jobId: number): Promise<number> {
  let total = 0;
  for (const id of MARKETPLACE_IDS) {
    const { rows } = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(MARKETPLACES[id].table)} WHERE isbn_lookup_job_id = ${jobId} AND lookup_status IN ('queued', 'pending')`,
    );
    total += must(rows[0], 'a count').n;
  }
  return total;
}

describe('worker processes on PostgreSQL', () => {
  let t: TestDatabase;
  const children: SpawnedProcess[] = [];
  const sandboxes: Sandbox[] = [];

  beforeAll(async () => {
    t = await openWorkerTestDatabase('pg');
  });
  afterEach(async () => {
    for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  });
  afterAll(() => t?.cleanup());

  it('three processes on one job never look a row up twice', async () => {
    const sandbox = await startMarketplaceSandbox({ latencyMs: 40 });
    sandboxes.push(sandbox);
    const workers = [0, 1, 2].map(() => spawnWorker({ DATABASE_URL: t.url!, SANDBOX_URL: sandbox.url, ...marketplaceEnv({}) }));
    children.push(...workers);
    await Promise.all(workers.map((w) => w.ready));

    const isbns = sampleIsbns(300, 20_000);
    const jobId = await seedJob(t.db, isbns);
    const deadline = Date.now() + 30_000;
    while ((await unfinished(t, jobId)) > 0 && Date.now() < deadline) await sleep(100);

    for (const w of workers) w.child.kill('SIGTERM');
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0, 0]);
    // Each process did a share of the work, so they really competed for rows.
    const shares = workers.map((w) => Number(/worker stopped after (\d+) lookups/.exec(w.output())?.[1]));
    expect(shares.every((n) => n > 0)).toBe(true);
    expect(shares.reduce((a, b) => a + b)).toBe(300 * MARKETPLACE_IDS.length);
    const calls = sandbox.stats().calls;
    for (const id of MARKETPLACE_IDS) {
      const rows = await lookupRows(t.db, id, jobId);
      expect(rows).toHaveLength(300);
      expect(rows.filter((r) => !['completed', 'no_offers_available'].includes(r.lookup_status))).toEqual([]);
      expect(rows.filter((r) => r.attempts !== 1)).toEqual([]);
      expect(isbns.filter((isbn) => calls[`${id}:${isbn}`]?.length !== 1)).toEqual([]);
    }
    // One request per lookup; Amazon's batches ask each ISBN once too (the calls above), in fewer requests.
    for (const id of MARKETPLACE_IDS.filter((m) => !marketplaceRegistry[m].batchSize))
      expect(sandbox.stats().byMarketplace[id].requests, id).toBe(300);
  });

  it('a worker killed mid-batch loses no row: its leases expire and another worker finishes them', async () => {
    const sandbox = await startMarketplaceSandbox({ latencyMs: 500, noOfferShare: 0 });
    sandboxes.push(sandbox);
    const leaseMs = 1200;
    const doomed = spawnWorker({
      DATABASE_URL: t.url!,
      SANDBOX_URL: sandbox.url,
      WORKER_LEASE_MS: String(leaseMs),
      ...marketplaceEnv({ TIMEOUT_MS: '1000' }),
    });
    children.push(doomed);
    await doomed.ready;
    const isbns = sampleIsbns(24, 30_000);
    const jobId = await seedJob(t.db, isbns, ['alibris']);
    while (sandbox.stats().byMarketplace.alibris.requests < 4) await sleep(10);
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const held = (await lookupRows(t.db, 'alibris', jobId)).filter((r) => r.lookup_status === 'pending').map((r) => r.isbn);
    expect(held.length).toBeGreaterThanOrEqual(4);
    const worker = startWorker({
      db: t.db,
      ...sandboxWorkerParts(sandbox, ['alibris'], { timeoutMs: 5000, concurrency: 8 }),
      // The doomed worker's rows carry its short lease; this worker's own claims get a roomy one, so
      // that on a busy machine a row waiting its turn here is never reaped and asked twice.
      leaseMs: 30_000,
      reapIntervalMs: 100,
      pollIntervalMs: 20,
    });
    await worker.idle();
    await worker.stop();

    const rows = await lookupRows(t.db, 'alibris', jobId);
    expect(rows.filter((r) => r.lookup_status !== 'completed')).toEqual([]);
    for (const row of rows) expect(row.attempts, row.isbn).toBe(held.includes(row.isbn) ? 2 : 1);
    const calls = sandbox.stats().calls;
    expect(isbns.filter((isbn) => (calls[`alibris:${isbn}`] ?? []).length > 2)).toEqual([]);
  });
});
