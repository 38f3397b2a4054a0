// Price history on both engines: every answer the worker writes is kept as an observation (failures
// and reused answers are not), a re-priced job keeps the old answer in history and shows the change
// since the previous look in its comparison (filterable, sortable), offers are stored only when they
// changed, retention prunes old observations but never the latest, and migrations 0008 and 0011
// turn answers from before into observations, offer counts and previous looks.
import { readFileSync } from 'node:fs';
import { COMPARISON_CURRENCY, PRICE_SOURCES } from '@app/domain/comparison';
import type { MarketplaceId } from '@app/domain/marketplaces';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bookVelocity, jobs, LOOKUP_TABLES, priceObservations } from '../src/db/schema.ts';
import { HistoryPruner, pruneObservations } from '../src/history/retention.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { postJobUpload } from './helpers/multipart.ts';
import { lookupRows, sandboxWorkerParts, seedJob } from './helpers/worker.ts';

const SELLERS: MarketplaceId[] = PRICE_SOURCES.map((s) => s.marketplace);
const ALL: MarketplaceId[] = [...SELLERS, 'pallet_iq'];
/** The sandbox refuses this one (an invalid ISBN): a failed lookup everywhere. */
const REFUSED = '97801';
const DAY = 86_400_000;

type Observation = typeof priceObservations.$inferSelect;

describe.each(ENGINES)('price history on %s', (engine) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let admin = '';
  let sandbox: Sandbox | undefined;

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await createUser(t, 'history-owner@example.com');
    admin = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    await t.ctx.db.delete(jobs);
    await t.ctx.db.delete(priceObservations);
  });
  afterAll(() => t.close());

  /** A sandbox whose prices drift with each request for an ISBN (1st as is, 2nd 20 % cheaper, …); every ISBN has offers. */
  const startDriftingSandbox = async () => {
    sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0, priceDrift: true });
    return sandbox;
  };

  async function runWorker(served: readonly MarketplaceId[] = ALL, reuseWindowMs = 0) {
    if (!sandbox) throw new Error('start a sandbox first');
    // A generous timeout: on a loaded machine a timed-out request is asked again, and with price drift
    // the n-th request for an ISBN sees other prices, so a retry would shift what each look saw.
    const worker = startWorker({
      db: t.ctx.db,
      pollIntervalMs: 20,
      reuseWindowMs,
      ...sandboxWorkerParts(sandbox, served, { timeoutMs: 60_000 }),
    });
    await worker.idle();
    await worker.stop();
  }

  const post = (token: string, url: string, body: unknown = {}) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: bearer(token), payload: body as object });

  async function createJob(isbns: string[], sources: readonly MarketplaceId[] = ALL): Promise<number> {
    const flags = Object.fromEntries(sources.map((m) => [m, true]));
    const res = await postJobUpload(
      t.app,
      owner.token,
      { name: 'History', ...flags },
      { name: 'isbns.csv', data: ['isbn', ...isbns].join('\n') },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  const observations = async (isbn?: string): Promise<Observation[]> =>
    t.ctx.db
      .select()
      .from(priceObservations)
      .where(isbn ? eq(priceObservations.isbn, isbn) : undefined)
      .orderBy(asc(priceObservations.observed_at), asc(priceObservations.id));

  const comparison = async (jobId: number, filters: unknown[] = [], qs = '') => {
    const res = await post(owner.token, `/jobs/${jobId}/comparison${qs}`, { filters });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Record<string, unknown>[]; count: number };
  };

  it('keeps one observation per answer: a re-priced job keeps the old answer and shows the change since the previous look', async () => {
    await startDriftingSandbox();
    const isbns = sampleIsbns(6, 31_000);
    const jobId = await createJob(isbns);
    await runWorker();

    const first = await observations();
    expect(first).toHaveLength(isbns.length * ALL.length);
    // The headline price is the one the comparison shows; PalletIQ's is its value.
    const before = await comparison(jobId);
    for (const row of before.data) {
      for (const m of SELLERS) {
        const o = first.find((x) => x.isbn === row.isbn && x.marketplace === m);
        expect(o, `${m} ${row.isbn}`).toMatchObject({ status: 'completed', price: row[`${m}_price`], currency: row[`${m}_currency`] });
        expect(o?.offer_count).toBe(row[`${m}_offers`]);
        expect(o?.offer_count).toBeGreaterThan(0);
        // Nobody looked at this ISBN before: no change yet.
        expect(row[`${m}_change`]).toBeNull();
      }
      expect(first.find((x) => x.isbn === row.isbn && x.marketplace === 'pallet_iq')).toMatchObject({
        price: row.pallet_iq_value,
        currency: COMPARISON_CURRENCY,
      });
      expect(row.best_price_change).toBeNull();
    }
    // Amazon's answers keep its sales rank, Buy Box and lowest used / new (the lookup row's), the others none.
    const amazonRows = await lookupRows(t.ctx.db, 'amazon', jobId);
    for (const r of amazonRows) {
      const o = first.find((x) => x.isbn === r.isbn && x.marketplace === 'amazon');
      expect(r.sales_rank, r.isbn).toEqual(expect.any(Number));
      expect(o, r.isbn).toMatchObject({
        sales_rank: Math.round(Number(r.sales_rank)),
        buy_box_price: r.buy_box_price,
        lowest_used_price: r.lowest_used_price,
        lowest_new_price: r.lowest_new_price,
      });
    }
    for (const o of first.filter((x) => x.marketplace !== 'amazon')) {
      expect([o.sales_rank, o.buy_box_price, o.lowest_used_price, o.lowest_new_price], o.marketplace).toEqual([null, null, null, null]);
    }
    // The first observation of each (marketplace, ISBN) carries its offers.
    for (const o of first) expect(Array.isArray(o.offers) && o.offers.length === o.offer_count, `${o.marketplace} ${o.isbn}`).toBe(true);

    const repriced = await post(owner.token, `/jobs/${jobId}/reprice`);
    expect(repriced.statusCode, repriced.body).toBe(200);
    await runWorker();

    const all = await observations();
    expect(all).toHaveLength(2 * isbns.length * ALL.length);
    const after = await comparison(jobId);
    for (const row of after.data) {
      const was = before.data.find((r) => r.isbn === row.isbn);
      for (const m of ALL) {
        const kept = all.filter((o) => o.isbn === row.isbn && o.marketplace === m);
        expect(kept, `${m} ${row.isbn}`).toHaveLength(2);
        expect(kept[1]!.observed_at.getTime()).toBeGreaterThan(kept[0]!.observed_at.getTime());
      }
      for (const m of SELLERS) {
        const [old, now] = all.filter((o) => o.isbn === row.isbn && o.marketplace === m);
        expect(old?.price).toBe(was?.[`${m}_price`]);
        expect(now?.price).toBe(row[`${m}_price`]);
        // The second request saw every listing at 80 %: the price dropped.
        expect(now!.price!).toBeLessThan(old!.price!);
        expect(row[`${m}_change`]).toBeCloseTo(now!.price! - old!.price!, 6);
        // Prices changed, so the offers did too and are stored again.
        expect(now?.offers).not.toBeNull();
      }
      const bestBefore = Number(was?.best_price);
      expect(Number(row.best_price)).toBeLessThan(bestBefore);
      expect(row.best_price_change).toBeCloseTo(Number(row.best_price) - bestBefore, 6);
    }

    // Amazon's write-back moved each book's velocity, resting on its ranked looks (docs/features/velocity.md).
    const velocity = await t.ctx.db.select().from(bookVelocity).where(inArray(bookVelocity.isbn, isbns));
    expect(velocity).toHaveLength(isbns.length);
    for (const v of velocity) {
      const ranked = all.filter((o) => o.isbn === v.isbn && o.marketplace === 'amazon' && o.sales_rank !== null);
      expect(v, v.isbn).toMatchObject({ source: 'amazon', observations: ranked.length });
    }

    // The lookup rows note the previous look.
    for (const m of ALL) {
      for (const r of await lookupRows(t.ctx.db, m, jobId)) {
        const [old] = all.filter((o) => o.isbn === r.isbn && o.marketplace === m);
        expect(r.previous_price, `${m} ${r.isbn}`).toBe(old?.price);
        expect(r.previous_currency).toBe(old?.currency);
      }
    }

    // "Best price dropped by at least X", X between two of the drops (amounts in cents differ by 0.01 at least).
    const drops = after.data.map((r) => Number(r.best_price_change)).sort((a, b) => a - b);
    const mid = drops.findIndex((d, i) => i > 0 && d - drops[i - 1]! > 0.005);
    expect(mid).toBeGreaterThan(0);
    const x = -Math.round(((drops[mid]! + drops[mid - 1]!) / 2) * 1000) / 1000;
    const dropped = await comparison(jobId, [{ field: 'best_price_change', operator: 'lte', value: String(-x) }]);
    expect(dropped.count).toBe(mid);
    for (const r of dropped.data) expect(Number(r.best_price_change)).toBeLessThanOrEqual(-x);

    // Sorted by the change: the biggest drop first.
    const sorted = await comparison(jobId, [], '?sort_by=best_price_change&sort_direction=asc');
    expect(sorted.data.map((r) => Number(r.best_price_change))).toEqual(drops);
    const byAbe = await comparison(jobId, [], '?sort_by=abe_books_change&sort_direction=desc');
    const abeChanges = byAbe.data.map((r) => Number(r.abe_books_change));
    expect(abeChanges).toEqual([...abeChanges].sort((a, b) => b - a));
    // Offer counts filter like any number.
    const offers = await comparison(jobId, [{ field: 'alibris_offers', operator: 'gte', value: '1' }]);
    expect(offers.count).toBe(isbns.length);
  });

  it('writes no observation for a failure', async () => {
    await startDriftingSandbox();
    const jobId = await seedJob(t.ctx.db, [REFUSED, ...sampleIsbns(1, 32_000)], ['abe_books']);
    await runWorker(['abe_books']);
    const rows = await lookupRows(t.ctx.db, 'abe_books', jobId);
    expect(rows.map((r) => r.lookup_status).sort()).toEqual(['completed', 'failed']);
    const kept = await observations();
    expect(kept.map((o) => o.lookup_id)).toEqual(rows.filter((r) => r.lookup_status === 'completed').map((r) => r.id));
    expect(await observations(REFUSED)).toEqual([]);
  });

  it('reuse writes no observation and copies the previous price of the answer it reuses', async () => {
    await startDriftingSandbox();
    const isbns = sampleIsbns(3, 33_000);
    const first = await createJob(isbns, ['alibris']);
    await runWorker(['alibris']);
    const repriced = await post(admin, `/jobs/${first}/reprice`);
    expect(repriced.statusCode, repriced.body).toBe(200);
    await runWorker(['alibris']);
    expect(await observations()).toHaveLength(2 * isbns.length);

    const second = await createJob(isbns, ['alibris']);
    await runWorker(['alibris'], DAY);
    expect(await observations()).toHaveLength(2 * isbns.length);
    const sources = new Map((await lookupRows(t.ctx.db, 'alibris', first)).map((r) => [r.id, r]));
    for (const r of await lookupRows(t.ctx.db, 'alibris', second)) {
      const source = sources.get(Number(r.reused_from));
      expect(source, r.isbn).toBeDefined();
      expect(r.previous_price).not.toBeNull();
      expect(r.previous_price).toBe(source?.previous_price);
      expect(r.previous_currency).toBe(source?.previous_currency);
      expect(r.offer_count).toBe(source?.offer_count);
      expect(r.offer_count).toBeGreaterThan(0);
    }
  });

  it('stores the offers only when they differ from the latest stored ones', async () => {
    // Without drift every request sees the same listings.
    sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0 });
    const isbns = sampleIsbns(2, 34_000);
    const jobId = await createJob(isbns, ['biblio']);
    await runWorker(['biblio']);
    await post(owner.token, `/jobs/${jobId}/reprice`);
    await runWorker(['biblio']);
    for (const isbn of isbns) {
      const [first, second] = await observations(isbn);
      expect(first?.offers).not.toBeNull();
      expect(second?.offers).toBeNull();
      expect(second?.offer_count).toBe(first?.offer_count);
      expect(second?.price).toBe(first?.price);
    }
    // The comparison's change is 0, not empty: looked at twice, same price.
    const { data } = await comparison(jobId);
    for (const row of data) expect(row.biblio_change).toBe(0);
  });

  it('prunes observations past the retention in bounded batches, keeping the latest and the offers it reads', async () => {
    const db = t.ctx.db;
    const at = (daysAgo: number) => sql`now() - ${daysAgo} * interval '1 day'`;
    const insert = (isbn: string, daysAgo: number, offers: unknown[] | null, marketplace = 'abe_books') =>
      db.insert(priceObservations).values({
        marketplace,
        isbn,
        observed_at: at(daysAgo) as unknown as Date,
        status: 'completed',
        price: daysAgo,
        currency: 'USD',
        offer_count: 1,
        offers,
      });
    // A: looked at 900, 800 (same offers) and 10 days ago (new offers): the two old ones go.
    await insert('A', 900, [{ p: 1 }]);
    await insert('A', 800, null);
    await insert('A', 10, [{ p: 2 }]);
    // B: only ever looked at long ago: its latest stays, and so do the offers it reads.
    await insert('B', 900, [{ p: 1 }]);
    await insert('B', 850, null);
    // C: the offers of its recent look live in an old row, which stays.
    await insert('C', 900, [{ p: 1 }]);
    await insert('C', 5, null);
    // D: a newer row with offers lets the older one with offers go; the newest reads the 800-day one.
    await insert('D', 900, [{ p: 1 }]);
    await insert('D', 800, [{ p: 2 }]);
    await insert('D', 1, null);
    // E: a look within the retention reads the old offers, so they stay though newer ones came later.
    await insert('E', 900, [{ p: 1 }]);
    await insert('E', 20, null);
    await insert('E', 10, [{ p: 2 }]);
    // Another marketplace's row of A is its own latest.
    await insert('A', 900, [{ p: 9 }], 'alibris');

    // Batches of 2: a pass takes several statements, each looking at no more than 2 rows.
    const pruner = new HistoryPruner(db, 730 * DAY, 2);
    let deleted = 0;
    for (let i = 0; i < 12; i++) {
      const r = await pruner.tick();
      expect(r?.scanned).toBeLessThanOrEqual(2);
      deleted += r?.deleted ?? 0;
    }
    const left = (await observations()).map((o) => `${o.marketplace}:${o.isbn}:${o.price}`).sort();
    expect(left).toEqual(
      [
        'abe_books:A:10',
        'abe_books:B:850',
        'abe_books:B:900',
        'abe_books:C:5',
        'abe_books:C:900',
        'abe_books:D:1',
        'abe_books:D:800',
        'abe_books:E:10',
        'abe_books:E:20',
        'abe_books:E:900',
        'alibris:A:900',
      ].sort(),
    );
    expect(deleted).toBe(3);
    // Nothing more to prune; retention 0 keeps everything.
    expect((await pruneObservations(db, 730 * DAY, null)).deleted).toBe(0);
    expect(await new HistoryPruner(db, 0).tick()).toBeNull();
  });

  it('the worker prunes on its own timer, with the retention it is given', async () => {
    await startDriftingSandbox();
    const old = { marketplace: 'alibris', isbn: '9780306406157', status: 'completed', price: 1, currency: 'USD', offer_count: 0 };
    await t.ctx.db.insert(priceObservations).values([
      { ...old, observed_at: new Date(Date.now() - 10 * DAY) },
      { ...old, observed_at: new Date(Date.now() - 9 * DAY) },
    ]);
    const worker = startWorker({
      db: t.ctx.db,
      pollIntervalMs: 20,
      historyRetentionMs: DAY,
      pruneIntervalMs: 20,
      ...sandboxWorkerParts(sandbox!, ['alibris']),
    });
    try {
      // The 10-day-old look goes; the 9-day-old one is the latest of its ISBN and stays.
      await expect.poll(async () => (await observations()).length, { timeout: 5000 }).toBe(1);
      expect((await observations())[0]?.observed_at.getTime()).toBeGreaterThan(Date.now() - 9.5 * DAY);
    } finally {
      await worker.stop();
    }
  });

  /** The statements of a committed migration that match `pattern`, run as the migration runs them. */
  async function runMigrationStatements(file: string, pattern: RegExp): Promise<number> {
    const statements = readFileSync(new URL(`../src/db/migrations/${file}`, import.meta.url), 'utf8')
      .split('--> statement-breakpoint')
      .filter((statement) => pattern.test(statement));
    for (const statement of statements) await t.ctx.db.execute(sql.raw(statement));
    return statements.length;
  }

  it('migrations 0008 and 0011 turn the answers already stored into observations, offer counts and previous looks', async () => {
    const isbns = sampleIsbns(3, 35_000);
    const jobId = await seedJob(t.ctx.db, isbns, ['abe_books', 'biblio']);
    // A later job asked AbeBooks about the first ISBN again.
    const laterJob = await seedJob(t.ctx.db, isbns.slice(0, 1), ['abe_books']);
    const abe = LOOKUP_TABLES.abe_books;
    const biblio = LOOKUP_TABLES.biblio;
    const [a0, a1, a2] = await lookupRows(t.ctx.db, 'abe_books', jobId);
    const [later] = await lookupRows(t.ctx.db, 'abe_books', laterJob);
    const [b0] = await lookupRows(t.ctx.db, 'biblio', jobId);
    await t.ctx.db.execute(sql`UPDATE ${abe} SET lookup_status = 'completed', answered_at = now() - interval '2 days',
      total_listing_price = 12.5, listing_price = 9, offers = '[{"a":1},{"a":2}]'::jsonb WHERE id = ${a0!.id}`);
    await t.ctx.db.execute(sql`UPDATE ${abe} SET lookup_status = 'failed', answered_at = now() WHERE id = ${a1!.id}`);
    await t.ctx.db.execute(sql`UPDATE ${abe} SET lookup_status = 'completed', answered_at = now(), reused_from = ${a0!.id},
      total_listing_price = 12.5 WHERE id = ${a2!.id}`);
    await t.ctx.db.execute(sql`UPDATE ${abe} SET lookup_status = 'completed', answered_at = now() - interval '1 day',
      total_listing_price = 10, offers = '[{"a":3}]'::jsonb WHERE id = ${later!.id}`);
    await t.ctx.db.execute(sql`UPDATE ${biblio} SET lookup_status = 'completed', answered_at = now() - interval '1 day',
      price = 10, shipping_price = 4, currency = 'eur', offers = '[{"b":1}]'::jsonb WHERE id = ${b0!.id}`);

    // 0008: every answer asked anew (not reused copies, not failures) becomes an observation.
    expect(await runMigrationStatements('0008_decisions.sql', /INSERT INTO "price_observations"/)).toBe(4);
    const kept = await observations();
    expect(kept.map((o) => [o.marketplace, o.lookup_id, o.price, o.currency, o.offer_count])).toEqual([
      ['abe_books', a0!.id, 12.5, 'USD', 2],
      ['abe_books', later!.id, 10, 'USD', 1],
      ['biblio', b0!.id, 14, 'EUR', 1],
    ]);

    // 0011: offer counts where there are offers (null elsewhere), and each answer's previous look.
    expect(await runMigrationStatements('0011_history_backfill.sql', /^\s*(--.*\n)*UPDATE /)).toBe(8);
    const rows = new Map(
      (await lookupRows(t.ctx.db, 'abe_books', jobId)).concat(await lookupRows(t.ctx.db, 'abe_books', laterJob)).map((r) => [r.id, r]),
    );
    expect([a0, a1, a2, later].map((r) => rows.get(r!.id)?.offer_count)).toEqual([2, null, null, 1]);
    expect((await lookupRows(t.ctx.db, 'biblio', jobId)).find((r) => r.id === b0!.id)?.offer_count).toBe(1);
    expect(rows.get(later!.id)).toMatchObject({ previous_price: 12.5, previous_currency: 'USD' });
    expect(rows.get(a0!.id)).toMatchObject({ previous_price: null, previous_currency: null });
    // The later job's comparison shows the change since the first look.
    await t.ctx.db.update(jobs).set({ abe_books: true }).where(eq(jobs.id, laterJob));
    const res = await post(admin, `/jobs/${laterJob}/comparison`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject([{ isbn: isbns[0], abe_books_price: 10, abe_books_change: -2.5, best_price_change: -2.5 }]);
  });
});
