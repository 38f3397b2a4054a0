// GET /api/v1/metrics: who may read it, and figures that move when a job runs through the sandbox.
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { startWorker } from '../src/worker/worker.ts';
import { bearer, createUser, login, ADMIN, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { metricValue, parseMetrics } from './helpers/prometheus.ts';
import { sandboxWorkerParts } from './helpers/worker.ts';
import { openEventStream } from './helpers/sse.ts';
import { halfSentRequest } from './helpers/half-sent.ts';
import { multipartBody } from './helpers/multipart.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const TOKEN = 'metrics-token-for-the-test-0123456789';
const scrapeAs = (t: TestApp, authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/metrics', headers: authorization === undefined ? {} : { authorization } });

async function scrape(t: TestApp) {
  const res = await scrapeAs(t, `Bearer ${TOKEN}`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.body);
}

describe('metrics are not public', () => {
  it('without METRICS_TOKEN there is no metrics endpoint, whoever asks', async () => {
    const t = await startTestApp('pg');
    try {
      const admin = await login(t.app, ADMIN.email, ADMIN.password);
      for (const authorization of [undefined, `Bearer ${admin}`, `Bearer ${TOKEN}`]) {
        const res = await scrapeAs(t, authorization);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not Found' });
      }
    } finally {
      await t.close();
    }
  });

  it('with it: 401 without a bearer, 403 for a wrong one (a user token included), 200 for the token', async () => {
    const t = await startTestApp('pg', { env: { METRICS_TOKEN: TOKEN } });
    try {
      const user = await createUser(t, 'metrics-user@example.com');
      const anonymous = await scrapeAs(t);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ detail: 'Not authenticated' });
      for (const wrong of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${user.token}`, `Bearer ${user.adminToken}`]) {
        const res = await scrapeAs(t, wrong);
        expect(res.statusCode, wrong).toBe(403);
        expect(res.json()).toEqual({ detail: 'Could not validate credentials' });
      }
      const names = new Set((await scrape(t)).map((s) => s.name));
      for (const name of [
        'lookup_queue_depth',
        'lookup_queue_oldest_age_seconds',
        'database_pool_connections',
        'process_cpu_user_seconds_total',
      ])
        expect(names, name).toContain(name);
    } finally {
      await t.close();
    }
  });

  it('a METRICS_TOKEN shorter than 16 characters is refused at start', async () => {
    const { loadConfig } = await import('../src/core/config.ts');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
  });
});

describe.each(ENGINES)('metrics move with the work on %s', (engine) => {
  let t: TestApp;
  let sandbox: Sandbox;
  /** The app over real HTTP, for streams and requests sent in parts (inject waits for a whole one). */
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(engine, { env: { METRICS_TOKEN: TOKEN } });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    sandbox = await startMarketplaceSandbox({ latencyMs: 5, noOfferShare: 0.3 });
  });
  afterAll(async () => {
    await sandbox?.close();
    await t?.close();
  });

  it('a job run through the sandbox: requests timed by route, queue filled then emptied, lookups counted', async () => {
    const { token } = await createUser(t, `metrics-${engine}@example.com`);
    const isbns = sampleIsbns(12, 41_000);
    const before = await scrape(t);
    const pasteRoute = { route: '/api/v1/jobs/from-isbns', method: 'POST', status_code: '200' };

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(token),
      payload: { name: 'metrics', abe_books: true, alibris: true, isbns: isbns.join('\n') },
    });
    expect(created.statusCode).toBe(200);
    const queued = await scrape(t);
    expect(metricValue(queued, 'http_request_duration_seconds_count', pasteRoute)).toBe(
      metricValue(before, 'http_request_duration_seconds_count', pasteRoute) + 1,
    );
    // The route's pattern, never the raw URL.
    expect(queued.filter((s) => s.labels.route?.includes('?') || /\/\d+(\/|$)/.test(s.labels.route ?? ''))).toEqual([]);
    for (const marketplace of ['abe_books', 'alibris']) {
      expect(metricValue(queued, 'lookup_queue_depth', { marketplace })).toBe(12);
      expect(metricValue(queued, 'lookup_queue_oldest_age_seconds', { marketplace })).toBeGreaterThanOrEqual(0);
    }
    expect(metricValue(queued, 'lookup_queue_depth', { marketplace: 'biblio' })).toBe(0);

    const worker = startWorker({ db: t.ctx.db, ...sandboxWorkerParts(sandbox, MARKETPLACE_IDS), pollIntervalMs: 20 });
    await worker.idle();
    await worker.stop();

    const after = await scrape(t);
    const moved = (name: string, labels: Record<string, string>) => metricValue(after, name, labels) - metricValue(before, name, labels);
    for (const marketplace of ['abe_books', 'alibris']) {
      expect(metricValue(after, 'lookup_queue_depth', { marketplace })).toBe(0);
      expect(metricValue(after, 'lookup_queue_oldest_age_seconds', { marketplace })).toBe(0);
      const finished = ['completed', 'no_offers_available'].map((outcome) => moved('lookups_finished_total', { marketplace, outcome }));
      expect(finished[0]! + finished[1]!).toBe(12);
      expect(finished[1]).toBeGreaterThan(0);
      expect(moved('marketplace_request_duration_seconds_count', { marketplace })).toBe(12);
      expect(moved('marketplace_rate_limit_wait_seconds_count', { marketplace })).toBe(12);
    }
    expect(moved('http_request_duration_seconds_count', pasteRoute)).toBe(1);
    expect(metricValue(after, 'database_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
  });

  it('a list answered before is filled from those answers: counted as reused, no marketplace call', async () => {
    const { token } = await createUser(t, `reuse-${engine}@example.com`);
    const isbns = sampleIsbns(5, 44_000);
    const paste = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/jobs/from-isbns',
        headers: bearer(token),
        payload: { name: 'reused', pallet_iq: true, isbns: isbns.join('\n') },
      });
    const run = async () => {
      const worker = startWorker({ db: t.ctx.db, ...sandboxWorkerParts(sandbox, MARKETPLACE_IDS), pollIntervalMs: 20 });
      await worker.idle();
      await worker.stop();
    };
    expect((await paste()).statusCode).toBe(200);
    await run();
    const before = await scrape(t);
    expect((await paste()).statusCode).toBe(200);
    await run();
    const after = await scrape(t);
    const moved = (name: string, labels: Record<string, string>) => metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(moved('lookups_finished_total', { marketplace: 'pallet_iq', outcome: 'reused' })).toBe(5);
    expect(moved('lookups_finished_total', { marketplace: 'pallet_iq' })).toBe(5);
    expect(moved('marketplace_request_duration_seconds_count', { marketplace: 'pallet_iq' })).toBe(0);
  });

  it('open live streams are counted while open', async () => {
    const { token } = await createUser(t, `live-${engine}@example.com`);
    const clients = async () => metricValue(await scrape(t), 'live_stream_clients');
    const before = await clients();
    const stream = await openEventStream(`${base}/api/v1/jobs/events`, token);
    await stream.waitFor((e) => e.event === 'ready');
    expect(await clients()).toBe(before + 1);
    stream.close();
    while ((await clients()) !== before) await sleep(20);
  });

  it('an upload is counted while the server receives and reads it', async () => {
    const { token } = await createUser(t, `upload-${engine}@example.com`);
    const parsing = async () => metricValue(await scrape(t), 'uploads_parsing');
    const before = await parsing();
    const csv = `ISBN\n${sampleIsbns(50, 46_000).join('\n')}\n`;
    const body = multipartBody({ config: JSON.stringify({ name: 'upload', abe_books: true }) }, { name: 'isbns.csv', data: csv });
    const upload = halfSentRequest(`${base}/api/v1/jobs/upload-file`, 'POST', { ...bearer(token), ...body.headers }, body.payload);
    while ((await parsing()) !== before + 1) await sleep(20);
    upload.finish();
    expect((await upload.answer).status).toBe(200);
    expect(await parsing()).toBe(before);
  });

  it('refusals by a marketplace (429, Alibris 403 over-QPS) are counted, and the lookups that gave up as failed', async () => {
    const refusing = await startMarketplaceSandbox({ latencyMs: 5, rate429Share: 1, retryAfterSeconds: 1 });
    try {
      const { token } = await createUser(t, `refused-${engine}@example.com`);
      const before = await scrape(t);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/jobs/from-isbns',
        headers: bearer(token),
        payload: { name: 'refused', biblio: true, alibris: true, isbns: sampleIsbns(3, 43_000).join('\n') },
      });
      expect(created.statusCode).toBe(200);
      const worker = startWorker({
        db: t.ctx.db,
        ...sandboxWorkerParts(refusing, ['biblio', 'alibris'], { maxAttempts: 1 }),
        pollIntervalMs: 20,
      });
      await worker.idle();
      await worker.stop();
      const after = await scrape(t);
      const moved = (name: string, labels: Record<string, string>) => metricValue(after, name, labels) - metricValue(before, name, labels);
      for (const marketplace of ['biblio', 'alibris']) {
        expect(moved('marketplace_refusals_total', { marketplace })).toBe(3);
        expect(moved('lookups_finished_total', { marketplace, outcome: 'failed' })).toBe(3);
        expect(moved('marketplace_request_duration_seconds_count', { marketplace, outcome: 'retry' })).toBe(3);
      }
    } finally {
      await refusing.close();
    }
  });
});
