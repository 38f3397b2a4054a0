// The superusers' status page's data (GET /api/v1/health/status), on one engine: who may read it
// (a session, no metrics token: 401 anonymous, 403 a user), and that it shows the queue per
// marketplace, the shared rate limit's next slot, eBay's daily budget left, the newest failed
// lookups and the workers' heartbeats, from the same tables /metrics and /health/workers read.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketplaceDailyCalls, marketplaceRateSlots, workerHeartbeats } from '../src/db/schema.ts';
import { LAST_ERRORS } from '../src/health/status.ts';
import { marketplaceRefusals, rateLimitWait } from '../src/metrics/instruments.ts';
import { quotaDay, quotaTimeZoneOf } from '../src/worker/daily-budget.ts';
import { bearer, createUser, startTestApp, type TestApp } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';
import { seedJob } from './helpers/worker.ts';

const ISBNS = ['9780000000001', '9780000000002', '9780000000003', '9780000000004'];

// Engine-neutral (ONE_ENGINE says why): the same statements through the query builder on both engines.
describe.each(ONE_ENGINE)('system status on %s', (engine) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof createUser>>;
  const get = (token?: string) => t.app.inject({ method: 'GET', url: '/api/v1/health/status', headers: token ? bearer(token) : {} });

  beforeAll(async () => {
    t = await startTestApp(engine);
    user = await createUser(t, `status-${engine}@example.com`);
  });
  afterAll(() => t?.close());

  it('is for superusers, with their session (no metrics token): 401 anonymous, 403 a user', async () => {
    expect((await get()).statusCode).toBe(401);
    const forbidden = await get(user.token);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ detail: "The user doesn't have enough privileges" });
    expect((await get(user.adminToken)).statusCode).toBe(200);
  });

  it('shows queues, the next request slot, the daily budget left, the newest failures and the heartbeats', async () => {
    const job = await seedJob(t.ctx.db, ISBNS, ['abe_books', 'ebay']);
    // Abe Books: two queued (one an hour old), two failed; eBay: all queued.
    await t.ctx.db.execute(sql`UPDATE abe_books_price_lookups SET created_at = now() - interval '1 hour' WHERE isbn = ${ISBNS[0]}`);
    await t.ctx.db.execute(
      sql`UPDATE abe_books_price_lookups SET lookup_status = 'failed', last_error = 'HTTP 500 from AbeBooks (gave up after 5 attempts)'
          WHERE isbn IN (${ISBNS[2]}, ${ISBNS[3]})`,
    );
    await t.ctx.db.insert(marketplaceRateSlots).values({ marketplace: 'ebay', next_at: sql`now() + interval '30 seconds'` });
    await t.ctx.db
      .insert(marketplaceDailyCalls)
      .values({ marketplace: 'ebay', day: quotaDay(new Date(), quotaTimeZoneOf('ebay')).day, used: 120, per_user: {} });
    await t.ctx.db.insert(workerHeartbeats).values({
      id: '00000000-0000-4000-8000-0000000000aa',
      host: 'worker-1',
      pid: 42,
      started_at: new Date(Date.now() - 60_000),
      last_seen: new Date(),
      beat_ms: 10_000,
      lookups_in_flight: 3,
    });
    // This process's worker waited for a request slot (the histogram /metrics exports).
    const before = (await get(user.adminToken)).json().marketplaces.find((m: { id: string }) => m.id === 'amazon').rate_limit_waits;
    rateLimitWait.observe({ marketplace: 'amazon' }, 0.5);
    marketplaceRefusals.inc({ marketplace: 'amazon' });
    try {
      const res = await get(user.adminToken);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const of = (id: string) => body.marketplaces.find((m: { id: string }) => m.id === id);
      expect(body.marketplaces.map((m: { id: string }) => m.id)).toEqual(['abe_books', 'biblio', 'alibris', 'pallet_iq', 'amazon', 'ebay']);
      expect(of('abe_books')).toMatchObject({ label: 'Abe Books', queued: 2, queued_capped: false, daily_budget: null });
      expect(of('abe_books').oldest_queued_seconds).toBeGreaterThan(3500);
      expect(of('abe_books').last_errors).toHaveLength(2);
      expect(of('abe_books').last_errors[0]).toMatchObject({
        job_id: job,
        isbn: ISBNS[3],
        message: 'HTTP 500 from AbeBooks (gave up after 5 attempts)',
      });
      expect(of('biblio')).toMatchObject({ queued: 0, oldest_queued_seconds: 0, last_errors: [], next_request_wait_seconds: 0 });
      // eBay's quota: 5,000 calls a day by default, 120 spent today.
      expect(of('ebay')).toMatchObject({ queued: 4, daily_budget: { budget: 5000, used: 120, left: 4880, resumes_at: null } });
      expect(of('ebay').next_request_wait_seconds).toBeGreaterThan(20);
      expect(of('amazon').rate_limit_waits.count).toBe(before.count + 1);
      expect(of('amazon').rate_limit_waits.seconds).toBeCloseTo(before.seconds + 0.5);
      expect(of('amazon').refusals).toBeGreaterThanOrEqual(1);
      expect(body.workers).toEqual([expect.objectContaining({ host: 'worker-1', pid: 42, lookups_in_flight: 3, stale: false })]);
    } finally {
      await t.ctx.db.delete(workerHeartbeats);
    }
  });

  it('lists at most the newest few failures per marketplace, and counts nothing of an earlier quota day', async () => {
    const many = Array.from({ length: LAST_ERRORS + 3 }, (_, i) => `97800000010${String(i).padStart(2, '0')}`);
    await seedJob(t.ctx.db, many, ['alibris']);
    await t.ctx.db.execute(sql`UPDATE alibris_price_lookups SET lookup_status = 'failed', last_error = 'isbn ' || isbn`);
    await t.ctx.db.execute(sql`UPDATE marketplace_daily_calls SET day = '2000-01-01', used = 4999 WHERE marketplace = 'ebay'`);
    const body = (await get(user.adminToken)).json();
    const alibris = body.marketplaces.find((m: { id: string }) => m.id === 'alibris');
    expect(alibris.last_errors.map((e: { isbn: string }) => e.isbn)).toEqual(many.slice(-LAST_ERRORS).reverse());
    expect(body.marketplaces.find((m: { id: string }) => m.id === 'ebay').daily_budget).toMatchObject({ used: 0, left: 5000 });
  });
});
