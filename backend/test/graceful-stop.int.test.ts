// SIGTERM on real processes: the API stops accepting, answers the request it is reading and lets
// its worker finish the lookups in flight, then exits 0; a worker process cut off by
// SHUTDOWN_TIMEOUT_MS hands its lookups back to the queue and removes its heartbeat.
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { workerHeartbeats } from '../src/db/schema.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { ADMIN } from './helpers/app.ts';
import { halfSentRequest } from './helpers/half-sent.ts';
import { metricValue, parseMetrics } from './helpers/prometheus.ts';
import { builtEntry, marketplaceEnv, spawnProcess, type SpawnedProcess } from './helpers/spawn.ts';
import { lookupRows, openWorkerTestDatabase, seedJob, type TestDatabase } from './helpers/worker.ts';

const children: SpawnedProcess[] = [];
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const p of children.splice(0)) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function sandboxWithLatency(latencyMs: number): Promise<Sandbox> {
  const sandbox = await startMarketplaceSandbox({ latencyMs, noOfferShare: 0 });
  sandboxes.push(sandbox);
  return sandbox;
}

async function untilRequests(sandbox: Sandbox, n: number): Promise<void> {
  while (sandbox.stats().requests < n) await sleep(20);
}

describe('graceful stop of the API process (PGlite, worker in-process)', () => {
  it('SIGTERM: no new connections, the request being read is answered, lookups in flight finish, exit 0', async () => {
    const sandbox = await sandboxWithLatency(1500);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'graceful-api-'));
    const api = spawnProcess(
      builtEntry('api'),
      {
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        SERVE_FRONTEND: 'false',
        RUN_SANDBOX: 'false',
        SANDBOX_URL: sandbox.url,
        FIRST_SUPERUSER: ADMIN.email,
        FIRST_SUPERUSER_PASSWORD: ADMIN.password,
        ...marketplaceEnv({ TIMEOUT_MS: '8000' }),
      },
      'is running at',
    );
    children.push(api);
    const [, port] = await api.waitFor(/is running at http:\/\/localhost:(\d+)/);
    const base = `http://127.0.0.1:${port}/api/v1`;
    const login = await fetch(`${base}/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
    });
    const auth = { authorization: `Bearer ${(await login.json()).access_token}` };
    const isbns = sampleIsbns(4, 47_000);
    const created = await fetch(`${base}/jobs/from-isbns`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'stopping', abe_books: true, isbns: isbns.join('\n') }),
    });
    expect(created.status).toBe(200);
    const jobId = (await created.json()).id as number;
    await untilRequests(sandbox, 4);

    // A request the server has started reading (its log line is out) but not received whole.
    const inFlight = halfSentRequest(`${base}/users/me`, 'PATCH', auth, JSON.stringify({ full_name: 'Still answered' }));
    await api.waitFor(/"method":"PATCH"/);
    api.child.kill('SIGTERM');
    await api.waitFor(/SIGTERM: stopping gracefully/);
    // It stops accepting at once, while its worker is still finishing the lookups in flight.
    while (
      await fetch(`${base}/health/live`).then(
        () => true,
        () => false,
      )
    )
      await sleep(20);
    expect(api.output()).not.toMatch(/worker stopped after/);
    inFlight.finish();
    const answered = await inFlight.answer;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toMatchObject({ full_name: 'Still answered' });
    expect(await api.exited).toBe(0);

    // The four lookups the marketplace was answering were written before the exit, each asked once.
    const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      const rows = await lookupRows(database.db, 'abe_books', jobId);
      expect(rows.map((r) => [r.lookup_status, r.attempts])).toEqual(isbns.map(() => ['completed', 1]));
      expect(sandbox.stats().requests).toBe(4);
      expect(await database.db.select().from(workerHeartbeats)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('graceful stop of a worker process (PostgreSQL)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openWorkerTestDatabase('pg');
  });
  afterAll(() => t?.cleanup());

  it('past SHUTDOWN_TIMEOUT_MS its lookups go back to the queue unspent; it serves its metrics until then', async () => {
    const sandbox = await sandboxWithLatency(20_000);
    const token = 'worker-metrics-token-0123456789';
    const worker = spawnProcess(
      builtEntry('worker'),
      {
        DATABASE_URL: t.url ?? '',
        SANDBOX_URL: sandbox.url,
        SHUTDOWN_TIMEOUT_MS: '300',
        WORKER_HEARTBEAT_MS: '100',
        WORKER_METRICS_PORT: '0',
        HOST: '127.0.0.1',
        METRICS_TOKEN: token,
        ...marketplaceEnv({ TIMEOUT_MS: '30000' }),
      },
      ' serving ',
    );
    children.push(worker);
    await worker.ready;
    const [, port] = await worker.waitFor(/metrics at http:\/\/127\.0\.0\.1:(\d+)\/metrics/);
    const isbns = sampleIsbns(3, 48_000);
    const jobId = await seedJob(t.db, isbns, ['biblio']);
    await untilRequests(sandbox, 3);
    let beats = await t.db.select().from(workerHeartbeats);
    while (beats[0]?.lookups_in_flight !== 3) {
      await sleep(20);
      beats = await t.db.select().from(workerHeartbeats);
    }
    expect(beats).toHaveLength(1);
    expect(beats[0]?.pid).toBe(worker.child.pid);

    const metricsUrl = `http://127.0.0.1:${port}/metrics`;
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(403);
    const scraped = await fetch(metricsUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    const samples = parseMetrics(await scraped.text());
    expect(metricValue(samples, 'marketplace_rate_limit_wait_seconds_count', { marketplace: 'biblio' })).toBe(3);
    expect(metricValue(samples, 'database_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    const rows = await lookupRows(t.db, 'biblio', jobId);
    expect(rows.map((r) => [r.lookup_status, r.attempts, r.lease_expires_at])).toEqual(isbns.map(() => ['queued', 0, null]));
    expect(await t.db.select().from(workerHeartbeats)).toEqual([]);
  });
});
