// Several machines, proven on one: the sandbox, two API processes and two worker processes, each
// started from the production build (`node backend/dist/*.js`, as the Dockerfile runs them), share
// one fresh PostgreSQL database and nothing else. They start all at once, as compose.yaml starts them.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKETPLACE_IDS, MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { marketplaceRegistry } from '../src/marketplaces/registry.ts';
import { must } from '@app/domain/must';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROCESS_ENTRIES } from '../scripts/bundle.ts';
import type { SandboxStats } from '../src/sandbox/server.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { openTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { killAll, marketplaceEnv, READY, spawnProcess, type SpawnedProcess } from './helpers/spawn.ts';
import { openEventStream, type EventStream } from './helpers/sse.ts';
import { lookupRows } from './helpers/worker.ts';

// Small numbers, so the whole file runs in well under a minute.
const RATE = 10; // requests per second per marketplace, shared by all workers
const CONCURRENCY = 2; // calls at once per marketplace and worker
const LEASE_MS = 2500; // a killed worker's rows go back to the queue after this
const LOGIN_MAX_ATTEMPTS = 3;
// Each step waits for the processes, never on a clock: on a busy machine a step takes longer, up to the
// generous test timeouts below, and proves the same.
const ADMIN = { email: 'admin@example.com', password: 'several processes' };

// A PostgreSQL server is one of the run's inputs (global-setup.ts finds or starts one): without it the
// run fails, never skips this.
describe('two APIs, two workers and the sandbox as processes on one PostgreSQL', () => {
  // The run's backend build (test/helpers/global-setup.ts), as the Dockerfile runs it.
  const build = inject('backendBuild');
  const started: SpawnedProcess[] = [];
  const names = new Map<SpawnedProcess, string>();
  const streams: EventStream[] = [];
  let t: TestDatabase;
  let sandboxUrl: string;
  let apis: [string, string];
  let apiProcesses: SpawnedProcess[];
  let token: string;

  const start = (name: string, entry: string, env: Record<string, string>, ready: RegExp) => {
    const spawned = spawnProcess(path.join(build, entry), env, ready);
    started.push(spawned);
    names.set(spawned, name);
    return spawned;
  };
  const common = () => ({ DATABASE_URL: t.url ?? '', SANDBOX_URL: sandboxUrl, LOG_LEVEL: 'info', LIVE_UPDATE_INTERVAL_MS: '100' });
  const startWorker = (name: string) =>
    start(
      name,
      PROCESS_ENTRIES.worker,
      {
        ...common(),
        WORKER_POLL_INTERVAL_MS: '50',
        WORKER_LEASE_MS: String(LEASE_MS),
        ...marketplaceEnv({ RATE_PER_SECOND: String(RATE), CONCURRENCY: String(CONCURRENCY), TIMEOUT_MS: '1000' }),
      },
      READY.worker,
    );
  const startApi = (name: string) =>
    start(
      name,
      PROCESS_ENTRIES.api,
      {
        ...common(),
        HOST: '127.0.0.1',
        PORT: '0',
        NODE_ENV: 'production',
        // Both APIs sign and check tokens with one key: a token from one is good on the other.
        SECRET_KEY: 'a shared secret key of at least 32 characters',
        FIRST_SUPERUSER: ADMIN.email,
        FIRST_SUPERUSER_PASSWORD: ADMIN.password,
        RUN_WORKER: 'false',
        RUN_SANDBOX: 'false',
        SERVE_FRONTEND: 'false',
        LOGIN_MAX_ATTEMPTS: String(LOGIN_MAX_ATTEMPTS),
      },
      READY.api,
    );

  const sandboxStats = async (): Promise<SandboxStats> => (await fetch(`${sandboxUrl}/_sandbox/stats`)).json() as Promise<SandboxStats>;
  const api = (i: 0 | 1, route: string, init: RequestInit = {}) =>
    fetch(`${apis[i]}/api/v1${route}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const login = (i: 0 | 1, username: string, password: string) =>
    fetch(`${apis[i]}/api/v1/login/access-token`, { method: 'POST', body: new URLSearchParams({ username, password }) });
  async function upload(i: 0 | 1, name: string, isbns: string[]): Promise<number> {
    const form = new FormData();
    form.set('config', JSON.stringify({ name, ...Object.fromEntries(MARKETPLACE_IDS.map((id) => [id, true])) }));
    form.set('file', new Blob([['ISBN', ...isbns].join('\n')]), `${name}.csv`);
    const res = await api(i, '/jobs/upload-file', { method: 'POST', body: form });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { id: number }).id;
  }
  /** Lookups of the job every marketplace has still to finish, as API `i` reports its progress. */
  async function left(i: 0 | 1, jobId: number): Promise<number> {
    const job = (await (await api(i, `/jobs/${jobId}`)).json()) as Record<MarketplaceId, { total_isbns: number; processed_isbns: number }>;
    return MARKETPLACE_IDS.reduce((n, id) => n + job[id].total_isbns - job[id].processed_isbns, 0);
  }
  async function finished(i: 0 | 1, jobId: number): Promise<void> {
    const deadline = Date.now() + 40_000;
    while ((await left(i, jobId)) > 0) {
      if (Date.now() > deadline)
        throw new Error(`job ${jobId} unfinished:\n${started.map((p) => `${names.get(p)}: ${p.output()}`).join('\n')}`);
      await sleep(100);
    }
  }
  const sharesOf = (worker: SpawnedProcess) => Number(/worker stopped after (\d+) lookups/.exec(worker.output())?.[1]);

  beforeAll(async () => {
    t = await openTestDatabase('pg', { prefix: 'processes' });
    const sandbox = start('sandbox', PROCESS_ENTRIES.sandbox, { SANDBOX_PORT: '0', SANDBOX_LATENCY_MS: '50' }, READY.sandbox);
    sandboxUrl = must((await sandbox.waitFor(READY.sandbox))[1], 'the sandbox says its URL');
    // Everything else at once on the fresh database: migrations and the first superuser race here.
    apiProcesses = [startApi('api-1'), startApi('api-2')];
    const workers = [startWorker('worker-1'), startWorker('worker-2')];
    const [api1, api2] = await Promise.all(apiProcesses.map(async (p) => (await p.waitFor(READY.api))[1]));
    await Promise.all(workers.map((w) => w.ready));
    // The banner says localhost; the APIs listen on 127.0.0.1 only.
    apis = [must(api1, 'API 1 is ready'), must(api2, 'API 2 is ready')].map((url) => url.replace('localhost', '127.0.0.1')) as [
      string,
      string,
    ];
    const res = await login(0, ADMIN.email, ADMIN.password);
    expect(res.status).toBe(200);
    token = ((await res.json()) as { access_token: string }).access_token;
  }, 120_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await killAll(started);
    await t?.cleanup();
  });

  it('a job uploaded through API 1 is priced by both workers within the rate counted at the sandbox; its events reach a stream on API 2', async () => {
    const stream = await openEventStream(`${apis[1]}/api/v1/jobs/events`, token);
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.waitFor((e) => e.event === 'ready');

    const isbns = sampleIsbns(20, 510_000);
    const jobId = await upload(0, 'two workers', isbns);
    await finished(1, jobId);

    // Live: the upload on API 1 and the workers' progress were NOTIFYed, and API 2 streamed them.
    await stream.waitFor((e) => e.event === 'jobs' && (JSON.parse(e.data) as { ids: number[] }).ids.includes(jobId));
    expect(stream.jobIds().filter((id) => id === jobId).length).toBeGreaterThan(1);

    const stats = await sandboxStats();
    for (const id of MARKETPLACE_IDS) {
      const { requests, firstAt, lastAt } = stats.byMarketplace[id];
      // One request per lookup; a batch marketplace (Amazon) asks each ISBN once, in fewer requests.
      if (marketplaceRegistry[id].batchSize) expect(isbns.filter((isbn) => stats.asked[`${id}:${isbn}`] !== 1)).toEqual([]);
      else expect(requests, id).toBe(isbns.length);
      // The two workers together take slots spaced 1/RATE apart from the one shared schedule in the
      // database. Each keeps a block of at most CONCURRENCY slots and may use one up to a block late,
      // so beyond RATE × the span (+1 for the first request) at most 2 × CONCURRENCY bunch up.
      const seconds = ((lastAt ?? 0) - (firstAt ?? 0)) / 1000;
      expect(requests, `${id}: ${requests} requests in ${seconds} s`).toBeLessThanOrEqual(RATE * seconds + 1 + 2 * CONCURRENCY);
    }

    // Both workers priced it: each says how many lookups it made as it stops, and together they made them all.
    const workers = started.filter((p) => names.get(p)?.startsWith('worker-') && p.running());
    for (const w of workers) w.child.kill('SIGTERM');
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    const shares = workers.map(sharesOf);
    expect(
      shares.every((n) => n > 0),
      `shares ${shares.join(', ')}`,
    ).toBe(true);
    expect(shares.reduce((a, b) => a + b)).toBe(isbns.length * MARKETPLACE_IDS.length);
  }, 60_000);

  it('the login throttle counts failures on both APIs together', async () => {
    // Failed logins for one account alternate between the APIs. Each API counting alone would
    // allow 2 × LOGIN_MAX_ATTEMPTS of them before any 429; counted together in the database, the
    // attempt after the limit is refused. (The wait after the limit doubles from 1 s, so even a
    // slow machine meets a 429 within these attempts.)
    const statuses: number[] = [];
    for (let n = 0; n < 2 * LOGIN_MAX_ATTEMPTS; n++)
      statuses.push((await login((n % 2) as 0 | 1, 'victim@example.com', 'a wrong guess')).status);
    const firstRefusal = statuses.indexOf(429);
    expect(firstRefusal, `statuses ${statuses.join(', ')}`).toBeGreaterThanOrEqual(LOGIN_MAX_ATTEMPTS);
    expect(statuses.slice(0, LOGIN_MAX_ATTEMPTS)).toEqual(Array(LOGIN_MAX_ATTEMPTS).fill(400));
  });

  it('kill -9 of a worker and of an API mid-job loses no lookup and asks none twice beyond what a lease allows', async () => {
    const workers = [startWorker('worker-3'), startWorker('worker-4')];
    await Promise.all(workers.map((w) => w.ready));
    const [doomedWorker, survivor] = workers as [SpawnedProcess, SpawnedProcess];
    const stream = await openEventStream(`${apis[1]}/api/v1/jobs/events`, token);
    streams.push(stream);
    await stream.waitFor((e) => e.event === 'ready');

    const isbns = sampleIsbns(30, 520_000);
    const before = (await sandboxStats()).requests;
    const jobId = await upload(0, 'killed mid-job', isbns);
    while ((await sandboxStats()).requests < before + 12) await sleep(20);
    doomedWorker.child.kill('SIGKILL');
    const api1 = apiProcesses[0] as SpawnedProcess; // the one that took the upload
    api1.child.kill('SIGKILL');
    await Promise.all([doomedWorker.exited, api1.exited]);
    const seenAtKill = stream.events.length;

    await finished(1, jobId);
    // API 2 still streams the survivor's progress.
    await stream.waitFor((e) => stream.events.indexOf(e) >= seenAtKill && e.event === 'jobs' && e.data.includes(String(jobId)));

    const asked = (await sandboxStats()).asked;
    let expiries = 0;
    for (const id of MARKETPLACE_IDS) {
      const rows = await lookupRows(t.db, id, jobId);
      expect(rows).toHaveLength(isbns.length);
      // No lookup lost: every one has its answer (the sandbox answers each ISBN, with offers or none).
      expect(rows.filter((r) => !['completed', 'no_offers_available'].includes(r.lookup_status)).map((r) => r.isbn)).toEqual([]);
      for (const row of rows) {
        // Every claim counts an attempt and sends at most one request. The sandbox injects no faults,
        // so a second claim only follows an expired lease (the killed worker's rows, put back by the
        // survivor's reaper): requests for an ISBN ≤ attempts = 1 + the lease expiries it went through.
        const requests = asked[`${MARKETPLACES[id].id}:${row.isbn}`] ?? 0;
        expect(requests, `${id} ${row.isbn}`).toBeLessThanOrEqual(row.attempts);
        expiries += row.attempts - 1;
      }
    }
    // The killed worker held rows when it died: their leases expired and the survivor finished them.
    expect(expiries, survivor.output()).toBeGreaterThan(0);
    expect(survivor.output()).toContain('lookups whose worker stopped responding were put back');
  }, 60_000);
});
