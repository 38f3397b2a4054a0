// The figures a dealer decides on, to the cent: each marketplace's headline is the cheapest delivered
// copy among the offers it stored (checked over real sandbox answers for all six marketplaces), and
// every money value the comparison computes (delivered price, spread, change, profit) comes out in
// whole cents on the page and in the CSV, never as floating-point residue.
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETPLACE_IDS, type MarketplaceId } from '@app/domain/marketplaces';
import { COMPARISON_CURRENCY, PRICE_SOURCES, priceField } from '@app/domain/comparison';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { seedComparisonJob, seedLookup } from './helpers/seed-lookups.ts';
import { lookupRows, sandboxWorkerParts, seedJob } from './helpers/worker.ts';

type Offer = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
const nested = (o: Offer, key: string) => (o[key] ?? {}) as Offer;

/**
 * The test's own reading of each marketplace's stored offers: what one copy costs delivered, in
 * which currency (null: no price, or shipping the answer does not state). Written from the wire
 * formats, not from the clients' code, so it checks them.
 */
const delivered: Partial<Record<MarketplaceId, (o: Offer) => { price: number | null; currency: string }>> = {
  abe_books: (o) => ({
    price: num(o.totalListingPrice) ?? num(o.listingPrice),
    currency: String(o.vendorCurrency ?? 'USD'),
  }),
  biblio: (o) => ({
    price: num(o.price) === null ? null : (num(o.price) ?? 0) + (num(o.shipping_price) ?? 0),
    currency: String(o.currency || 'USD').toUpperCase(),
  }),
  alibris: (o) => ({ price: num(o.price), currency: 'USD' }),
  amazon: (o) => ({
    price: num(o.listing_price) === null ? null : (num(o.listing_price) ?? 0) + (num(o.shipping_price) ?? 0),
    currency: String(o.currency ?? 'USD'),
  }),
  ebay: (o) => {
    const shipping = ((o.shippingOptions as Offer[] | undefined) ?? [])[0];
    const cost = shipping ? num(nested(shipping, 'shippingCost').value) : 0;
    const price = num(nested(o, 'price').value);
    return { price: price === null || cost === null ? null : price + cost, currency: String(nested(o, 'price').currency ?? '') };
  },
};

const toCents = (v: number) => Math.round(v * 100);

describe.each(ENGINES)('money figures on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t?.close());

  it('headlines the cheapest delivered copy among each marketplace’s stored offers (sandbox answers, six marketplaces)', async () => {
    const sandbox = await startMarketplaceSandbox({ latencyMs: 0 });
    try {
      const jobId = await seedJob(t.ctx.db, sampleIsbns(40, 7_000));
      // seedJob queues the rows; the job must also say it asks every marketplace for the comparison to join them.
      const flags = sql.join(
        MARKETPLACE_IDS.map((id) => sql`${sql.identifier(id)} = true`),
        sql`, `,
      );
      await t.ctx.db.execute(sql`UPDATE jobs SET ${flags} WHERE id = ${jobId}`);
      const worker = startWorker({
        db: t.ctx.db,
        pollIntervalMs: 20,
        ...sandboxWorkerParts(sandbox, MARKETPLACE_IDS, { timeoutMs: 10_000 }),
      });
      await worker.idle();
      await worker.stop();
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/jobs/${jobId}/comparison?limit=100`,
        headers: bearer(admin),
        payload: { filters: [] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const shown = new Map((res.json().data as Record<string, unknown>[]).map((r) => [r.isbn as string, r]));
      let checked = 0;
      for (const source of PRICE_SOURCES) {
        const read = delivered[source.marketplace];
        if (!read) throw new Error(`no reading of ${source.marketplace}'s offers`);
        for (const row of await lookupRows(t.ctx.db, source.marketplace, jobId)) {
          const offers = (row.offers ?? []) as Offer[];
          if (row.lookup_status !== 'completed' || offers.length === 0) continue;
          const priced = offers.map(read).filter((o) => o.price !== null);
          const inUsd = priced.filter((o) => o.currency === COMPARISON_CURRENCY);
          const pool = inUsd.length ? inUsd : priced.filter((o) => o.currency === priced[0]?.currency);
          if (pool.length === 0) continue;
          const cheapest = Math.min(...pool.map((o) => toCents(o.price ?? 0)));
          const headline = shown.get(row.isbn)?.[priceField(source.marketplace)];
          expect(typeof headline, `${source.marketplace} ${row.isbn}`).toBe('number');
          expect(toCents(headline as number), `${source.marketplace} ${row.isbn}: ${JSON.stringify(pool)}`).toBe(cheapest);
          checked++;
        }
      }
      // Every selling marketplace had books with offers to compare.
      expect(checked).toBeGreaterThan(PRICE_SOURCES.length * 10);
    } finally {
      await sandbox.close();
    }
  });

  describe('computed money', () => {
    let owner: { id: string; token: string };
    let jobId: number;
    const ISBN = '9780000000019';
    beforeAll(async () => {
      owner = await createUser(t, `money-${engine}@example.com`);
      jobId = await seedComparisonJob(t.ctx.db, owner.id, ['abe_books', 'biblio', 'ebay']);
      // In floating point 15.49 + 3 is 18.490000000000002 and 25.99 + 6.5 is 32.489999999999995.
      await seedLookup(t.ctx.db, 'abe_books_price_lookups', jobId, ISBN, { total_listing_price: 18.49 });
      await seedLookup(t.ctx.db, 'biblio_price_lookups', jobId, ISBN, { price: 15.49, shipping_price: 3, currency: 'USD' });
      await seedLookup(t.ctx.db, 'ebay_price_lookups', jobId, ISBN, { price: 25.99, shipping_cost: 6.5, currency: 'USD' });
      // A pallet of $33 over 7 books: $4.714285… each.
      const cost = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/jobs/${jobId}/cost`,
        headers: bearer(owner.token),
        payload: { cost_per_book: 33 / 7 },
      });
      expect(cost.statusCode, cost.body).toBe(200);
    });

    it('answers whole cents on the page', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/jobs/${jobId}/comparison`,
        headers: bearer(owner.token),
        payload: { filters: [] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const [row] = res.json().data as Record<string, unknown>[];
      expect(row).toMatchObject({ biblio_price: 18.49, ebay_price: 32.49, best_price: 18.49, best_source: 'Abe Books', spread: 14 });
      // AbeBooks: 18.49 less 8 % (1.4792, within its $0.50–$40 bounds) less 4.714285… = 12.296515 → 12.30.
      expect(row?.estimated_profit).toBe(12.3);
    });

    it('writes whole cents in the CSV', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/jobs/${jobId}/comparison/download-csv`,
        headers: bearer(owner.token),
        payload: { filters: [] },
      });
      expect(res.statusCode).toBe(200);
      const [header, values] = parse(res.body) as string[][];
      const cell = (label: string) => values?.[header?.indexOf(label) ?? -1];
      expect([cell('Biblio'), cell('eBay'), cell('Best Price'), cell('Spread'), cell('Estimated Profit')]).toEqual([
        '18.49',
        '32.49',
        '18.49',
        '14.00',
        '12.30',
      ]);
    });
  });
});
