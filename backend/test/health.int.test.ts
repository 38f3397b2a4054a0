// Liveness, readiness and the workers' heartbeats (GET /api/v1/health/…).
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createContext } from '../src/core/create-context.ts';
import { workerHeartbeats } from '../src/db/schema.ts';
import { MIGRATIONS_FOLDER } from '../src/db/client.ts';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { startWorker } from '../src/worker/worker.ts';
import { bearer, createUser, silentLogger, startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { ENGINES, openTestDatabase, type Engine } from './helpers/databases.ts';
import { sandboxWorkerParts, seedJob } from './helpers/worker.ts';

const get = (t: Pick<TestApp, 'app'>, path: string, token?: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/health/${path}`, headers: token ? bearer(token) : {} });

/** An app over a database the test may break, without the first superuser or product routes. */
async function appOver(engine: Engine) {
  const test = await openTestDatabase(engine);
  const ctx = await createContext(testConfig(), { database: test.database, log: silentLogger });
  const app = await buildApp(ctx);
  await app.ready();
  const close = async () => {
    await app.close();
    await ctx.closeDatabase();
    // The test may have closed the database already.
    await test.cleanup().catch(() => {});
  };
  return { app, test, close };
}

describe.each(ENGINES)('health on %s', (engine) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await startTestApp(engine);
    user = await createUser(t, `health-${engine}@example.com`);
  });
  afterAll(() => t?.close());

  it('live and ready answer anyone, without a token', async () => {
    for (const token of [undefined, user.token, user.adminToken]) {
      expect((await get(t, 'live', token)).json()).toEqual({ status: 'ok' });
      const ready = await get(t, 'ready', token);
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ok' });
    }
    // The specification's health check is unchanged.
    const spec = await t.app.inject({ method: 'GET', url: '/api/v1/utils/health-check/' });
    expect(spec.json()).toBe(true);
  });

  it('the workers list is for superusers: 401 anonymous, 403 a user', async () => {
    expect((await get(t, 'workers')).statusCode).toBe(401);
    const forbidden = await get(t, 'workers', user.token);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ detail: "The user doesn't have enough privileges" });
    expect((await get(t, 'workers', user.adminToken)).statusCode).toBe(200);
  });

  it("a running worker's heartbeat is listed with its lookups in flight, and gone once it stopped", async () => {
    const sandbox = await startMarketplaceSandbox({ latencyMs: 400 });
    try {
      await seedJob(t.ctx.db, sampleIsbns(8, 45_000), ['biblio']);
      const worker = startWorker({ db: t.ctx.db, ...sandboxWorkerParts(sandbox, ['biblio']), heartbeatMs: 50, pollIntervalMs: 20 });
      let listed: { data: Record<string, unknown>[]; count: number } = { data: [], count: 0 };
      while (!listed.data.some((w) => Number(w.lookups_in_flight) > 0)) {
        await sleep(20);
        listed = (await get(t, 'workers', user.adminToken)).json();
      }
      expect(listed.count).toBe(1);
      expect(listed.data[0]).toMatchObject({ pid: process.pid, stale: false, host: hostname() });
      expect(Date.parse(String(listed.data[0]?.last_seen))).toBeGreaterThanOrEqual(Date.parse(String(listed.data[0]?.started_at)));
      await worker.idle();
      await worker.stop();
      expect((await get(t, 'workers', user.adminToken)).json()).toEqual({ data: [], count: 0 });
    } finally {
      await sandbox.close();
    }
  });

  it('a worker that missed three beats of its own interval is stale', async () => {
    const beat = { host: 'gone', pid: 1, started_at: new Date(Date.now() - 60_000), lookups_in_flight: 2 };
    await t.ctx.db.insert(workerHeartbeats).values([
      { ...beat, id: '00000000-0000-4000-8000-000000000001', beat_ms: 10_000, last_seen: new Date(Date.now() - 31_000) },
      { ...beat, id: '00000000-0000-4000-8000-000000000002', beat_ms: 10_000, last_seen: new Date(Date.now() - 20_000) },
    ]);
    try {
      const { data } = (await get(t, 'workers', user.adminToken)).json();
      expect(data.map((w: { host: string; stale: boolean }) => w.stale)).toEqual([true, false]);
    } finally {
      await t.ctx.db.delete(workerHeartbeats);
    }
  });

  it('not ready (503) while a migration of this build is not applied', async () => {
    const a = await appOver(engine);
    try {
      const db = a.test.db;
      const { rows } = await db.execute<{ id: number }>(sql`SELECT max(id) AS id FROM drizzle.__drizzle_migrations`);
      await db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${rows[0]?.id}`);
      const ready = await get(a, 'ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ detail: '1 database migration(s) not applied yet' });
      expect((await get(a, 'live')).statusCode).toBe(200);
      // A database never migrated at all (no drizzle bookkeeping): every shipped migration is missing.
      await db.execute(sql`DROP SCHEMA drizzle CASCADE`);
      const shipped = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
      expect((await get(a, 'ready')).json()).toEqual({ detail: `${shipped} database migration(s) not applied yet` });
    } finally {
      await a.close();
    }
  });

  it('not ready (503) when the database is unreachable; still live', async () => {
    const a = await appOver(engine);
    try {
      await a.test.database.close();
      const ready = await get(a, 'ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ detail: 'The database is unreachable' });
      expect((await get(a, 'live')).json()).toEqual({ status: 'ok' });
    } finally {
      await a.close();
    }
  });
});
