// Keepa on both engines: the token bucket shared by two workers through the database (one reserves,
// the other waits while the projected balance is not positive, and the refill lets it go), and the
// fetcher against the sandbox's Keepa: an Amazon job's ISBNs asked in one batch, their points kept in
// the history as Keepa's (the book page's history reaches back before our first look), unknown ones
// dated, and velocity computed from Keepa's series.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_TABLES, bookVelocity, jobs, keepaBooks, keepaTokens, notifications, priceObservations, watches } from '../src/db/schema.ts';
import { KeepaFetcher } from '../src/keepa/fetcher.ts';
import { evaluateWatchesOfBook } from '../src/watches/evaluate.ts';
import { keepaSettings } from '../src/keepa/options.ts';
import { knownToKeepa } from '../src/keepa/sandbox-format.ts';
import { KeepaTokens } from '../src/keepa/tokens.ts';
import { refreshVelocity } from '../src/velocity/compute.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { seedJob } from './helpers/worker.ts';

const quiet = { info() {}, warn() {}, error() {} };

describe.each(ENGINES)('Keepa on %s', (engine) => {
  let t: TestApp;
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    await t.ctx.db.delete(keepaTokens);
  });
  afterAll(() => t.close());

  it('two workers share one token bucket: a reservation spends it, the other waits for the refill', async () => {
    const a = new KeepaTokens(t.ctx.db);
    const b = new KeepaTokens(t.ctx.db);
    // No state yet (Keepa never asked): both go, and the first answer sets the state.
    expect(await a.reserve(100)).toBe(0);
    await a.update({ timestamp: Date.now(), tokensLeft: 150, refillRate: 60, refillIn: 30_000, tokensConsumed: 100 });
    // 150 → 50: positive, so b may still send its 100 (Keepa runs a request while the balance is positive) → -50.
    expect(await a.reserve(100)).toBe(0);
    expect(await b.reserve(100)).toBe(0);
    // -50 at 60 a minute: positive (≥ 1) again after 51 tokens, 51 s; nobody reserves meanwhile.
    const wait = await a.reserve(100);
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(51_000);
    expect(await b.reserve(1)).toBeGreaterThan(50_000);
    expect((await a.read())?.tokensLeft).toBeCloseTo(-50, 0);
    // A minute later (the row's time moved back) 60 tokens have come: 10 left, and exactly one of two
    // workers asking at once gets them.
    await t.ctx.db.update(keepaTokens).set({ at: sql`${keepaTokens.at} - interval '1 minute'` });
    const both = await Promise.all([a.reserve(20), b.reserve(20)]);
    expect(both.filter((w) => w === 0)).toHaveLength(1);
    expect(both.find((w) => w > 0)).toBeGreaterThan(0);
    // The balance never exceeds an hour of refill (Keepa's tokens expire after an hour).
    await a.update({ timestamp: Date.now(), tokensLeft: 0, refillRate: 10, refillIn: 0, tokensConsumed: 0 });
    await t.ctx.db.update(keepaTokens).set({ at: sql`${keepaTokens.at} - interval '1 day'` });
    expect(await a.reserve(1)).toBe(0);
    expect((await a.read())?.tokensLeft).toBeCloseTo(600 - 1, 3);
  });

  it('the fetcher asks the sandbox for an Amazon job’s ISBNs in one batch and keeps their history as Keepa’s', async () => {
    sandbox = await startMarketplaceSandbox({ latencyMs: 0 });
    const isbns = sampleIsbns(12, 57_340);
    const jobId = await seedJob(t.ctx.db, isbns, ['amazon']);
    await t.ctx.db.update(jobs).set({ amazon: true }).where(eq(jobs.id, jobId));
    const settings = keepaSettings(
      { enabled: true, key: undefined, url: undefined, batchSize: 100, refreshMs: 86_400_000, timeoutMs: 10_000 },
      sandbox.url,
      true,
    );
    expect(settings?.url).toBe(`${sandbox.url}/keepa`);
    // Revisits a job with nothing to ask at every pass (KEEPA_REVISIT_MS in the product).
    const fetcher = new KeepaFetcher(t.ctx.db, settings!, quiet, { revisitMs: 0 });
    expect(await fetcher.pass()).toBe(true);
    expect(fetcher.requests).toBe(1);
    // Every ISBN is dated, found or not; a second pass has nothing to ask.
    const books = await t.ctx.db.select().from(keepaBooks).where(inArray(keepaBooks.isbn, isbns));
    expect(books.map((b) => [b.isbn, b.found]).sort()).toEqual(isbns.map((i) => [i, knownToKeepa(i)]).sort());
    expect(await fetcher.pass()).toBe(false);
    // The token state is the sandbox's envelope.
    expect((await new KeepaTokens(t.ctx.db).read())?.refillRate).toBe(600);

    const known = isbns.filter(knownToKeepa);
    expect(known.length).toBeGreaterThan(0);
    const isbn = known[0]!;
    const points = await t.ctx.db.select().from(priceObservations).where(eq(priceObservations.isbn, isbn));
    expect(points.every((p) => p.marketplace === 'keepa')).toBe(true);
    // About two years back, with ranks and prices.
    const oldest = Math.min(...points.map((p) => p.observed_at.getTime()));
    expect(Date.now() - oldest).toBeGreaterThan(700 * 86_400_000);
    expect(points.some((p) => p.sales_rank !== null && p.sales_rank > 0)).toBe(true);
    expect(points.some((p) => p.lowest_used_price !== null)).toBe(true);

    // Velocity from Keepa's series, resting on its ranked points.
    const [v] = await t.ctx.db.select().from(bookVelocity).where(eq(bookVelocity.isbn, isbn));
    expect(v).toMatchObject({ source: 'keepa' });
    expect(v?.observations).toBeGreaterThan(10);
    expect(v?.avg_rank_180).toBeGreaterThan(0);

    // Keepa's own stats (asked with stats=180) are kept on its keepa_books row, as of the answer's
    // time. The sandbox computes them from the series it sent, as Keepa does, with our drop rule: so our
    // figures computed from the stored series as of that moment are exactly Keepa's.
    const stored = await t.ctx.db.select().from(keepaBooks).where(inArray(keepaBooks.isbn, known));
    const kb = stored.find((b) => b.isbn === isbn);
    expect(kb?.stats_at).toBeInstanceOf(Date);
    expect(Math.abs(Date.now() - kb!.stats_at!.getTime())).toBeLessThan(60_000);
    // One answer: one time for every product of the batch.
    expect(new Set(stored.map((b) => b.stats_at?.getTime())).size).toBe(1);
    await refreshVelocity(t.ctx.db, known, kb!.stats_at!);
    const ours = await t.ctx.db.select().from(bookVelocity).where(inArray(bookVelocity.isbn, known));
    const figures = (b: Record<string, unknown>, prefix: string) => [
      b.isbn,
      ...['rank_drops_30', 'rank_drops_90', 'rank_drops_180', 'avg_rank_90', 'avg_rank_180'].map((f) => b[prefix + f]),
    ];
    expect(stored.map((b) => figures(b, 'stats_')).sort()).toEqual(ours.map((v) => figures(v, '')).sort());
    // Not all zeros: some book of the batch sold within 180 days.
    expect(Math.max(...stored.map((b) => b.stats_rank_drops_180 ?? 0))).toBeGreaterThan(0);
    // The current rank and prices are the series' last values (null where it ends in -1).
    const last = points.toSorted((a, b) => a.observed_at.getTime() - b.observed_at.getTime()).at(-1);
    expect([kb?.stats_current_rank, kb?.stats_used_price, kb?.stats_new_price]).toEqual([
      last?.sales_rank,
      last?.lowest_used_price,
      last?.lowest_new_price,
    ]);
    // An ISBN Keepa does not know has no stats.
    const unknown = isbns.find((i) => !knownToKeepa(i));
    expect(unknown).toBeDefined();
    const [none] = await t.ctx.db.select().from(keepaBooks).where(eq(keepaBooks.isbn, unknown!));
    expect([none?.found, none?.stats_at, none?.stats_rank_drops_90]).toEqual([false, null, null]);

    // The book page's history has them as Keepa's, apart from our own looks.
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/books/${isbn}/history`, headers: bearer(admin) });
    expect(res.statusCode, res.body).toBe(200);
    const history = res.json() as {
      keepa: { points: { sales_rank: number | null }[]; stats: Record<string, unknown> | null };
      series: { points: unknown[] }[];
      velocity: Record<string, unknown> | null;
    };
    expect(history.keepa.points.length).toBe(Math.min(points.length, 500));
    expect(history.series.every((s) => s.points.length === 0)).toBe(true);
    // With the velocity figures drawn from Keepa's series and Keepa's own stats beside them.
    const v2 = ours.find((v) => v.isbn === isbn)!;
    expect(history.velocity).toEqual({
      source: 'keepa',
      observations: v2.observations,
      rank_drops_30: v2.rank_drops_30,
      rank_drops_90: v2.rank_drops_90,
      rank_drops_180: v2.rank_drops_180,
      avg_rank_90: v2.avg_rank_90,
      avg_rank_180: v2.avg_rank_180,
      sale_days_180: v2.sale_days_180,
      computed_at: v2.computed_at.toISOString(),
    });
    expect(history.keepa.stats).toEqual({
      at: kb!.stats_at!.toISOString(),
      rank_drops_30: kb!.stats_rank_drops_30,
      rank_drops_90: kb!.stats_rank_drops_90,
      rank_drops_180: kb!.stats_rank_drops_180,
      avg_rank_90: kb!.stats_avg_rank_90,
      avg_rank_180: kb!.stats_avg_rank_180,
      current_rank: kb!.stats_current_rank,
      used_price: kb!.stats_used_price,
      new_price: kb!.stats_new_price,
    });
    // A book Keepa does not know: no stats, and our figures rest on no observation at all.
    const unknownRes = await t.app.inject({ method: 'GET', url: `/api/v1/books/${unknown}/history`, headers: bearer(admin) });
    expect(unknownRes.json().keepa.stats).toBeNull();
    expect(unknownRes.json().velocity).toMatchObject({ source: 'amazon', observations: 0, rank_drops_180: 0, avg_rank_90: null });

    // A job gains ISBNs after it was found with nothing to ask (a list still being written, a scan
    // session's next book): looked at again once its minute is up, the new ISBN is asked.
    const later = sampleIsbns(1, 57_400)[0]!;
    await t.ctx.db.insert(LOOKUP_TABLES.amazon).values({ isbn_lookup_job_id: jobId, isbn: later, input_filename: 'later' });
    expect(await fetcher.pass()).toBe(true);
    expect(await t.ctx.db.$count(keepaBooks, eq(keepaBooks.isbn, later))).toBe(1);

    // Asked again (refresh due), an ISBN's Keepa points are replaced, not doubled.
    await t.ctx.db.update(keepaBooks).set({ fetched_at: sql`now() - interval '2 days'` });
    expect(await new KeepaFetcher(t.ctx.db, settings!, quiet).pass()).toBe(true);
    expect(await t.ctx.db.$count(priceObservations, eq(priceObservations.isbn, isbn))).toBe(points.length);
  });

  it('a watch on the velocity fields hears of Keepa’s series when it lands, not at the book’s next answer', async () => {
    sandbox = await startMarketplaceSandbox({ latencyMs: 0 });
    const isbns = sampleIsbns(12, 57_700);
    const known = isbns.filter(knownToKeepa);
    const unknown = isbns.find((i) => !knownToKeepa(i));
    expect(known.length).toBeGreaterThanOrEqual(2);
    expect(unknown).toBeDefined();
    const user = await createUser(t, `keepa-watcher-${engine}@example.com`);
    const jobId = await seedJob(t.ctx.db, isbns, ['amazon'], { ownerId: user.id });
    await t.ctx.db.update(jobs).set({ amazon: true }).where(eq(jobs.id, jobId));
    // No rank seen yet: no average rank, so neither watch holds before Keepa answers.
    const sells = [{ field: 'avg_rank_180', operator: 'gt', value: '0' }];
    for (const target of [{ isbn: known[0] }, { jobId }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/watches',
        headers: bearer(user.token),
        payload: { ...target, conditions: sells },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await t.ctx.db.$count(notifications, eq(notifications.user_id, user.id))).toBe(0);

    const settings = keepaSettings(
      { enabled: true, key: undefined, url: undefined, batchSize: 100, refreshMs: 86_400_000, timeoutMs: 10_000 },
      sandbox.url,
      true,
    );
    expect(await new KeepaFetcher(t.ctx.db, settings!, quiet, { revisitMs: 0, afterBook: evaluateWatchesOfBook }).pass()).toBe(true);
    const sent = await t.ctx.db.select().from(notifications).where(eq(notifications.user_id, user.id));
    const ranked = (await t.ctx.db.select().from(bookVelocity).where(inArray(bookVelocity.isbn, isbns)))
      .filter((v) => (v.avg_rank_180 ?? 0) > 0)
      .map((v) => v.isbn);
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked).not.toContain(unknown);
    // The job watch fires per book Keepa ranked; the book watch once for its book.
    const jobWatchAlerts = sent.filter((n) => n.job_id === jobId).map((n) => n.isbn);
    expect(jobWatchAlerts.sort()).toEqual(ranked.sort());
    expect(sent.filter((n) => n.job_id === null).map((n) => n.isbn)).toEqual(ranked.includes(known[0]!) ? [known[0]] : []);

    // Asked again (refresh due), the same series: edge-triggered, nothing fires twice.
    await t.ctx.db.update(keepaBooks).set({ fetched_at: sql`now() - interval '2 days'` });
    expect(await new KeepaFetcher(t.ctx.db, settings!, quiet, { revisitMs: 0, afterBook: evaluateWatchesOfBook }).pass()).toBe(true);
    expect(await t.ctx.db.$count(notifications, eq(notifications.user_id, user.id))).toBe(sent.length);
    await t.ctx.db.delete(watches).where(eq(watches.user_id, user.id));
  });
});
