// Amazon in a job's comparison (API and CSV): its price is the lowest landed used offer, else the
// lowest new; sales rank, lowest used, lowest new and Buy Box are columns of their own that filter
// and sort; the estimated profit of a book best sold on Amazon uses Amazon's fee schedule; a buy
// rule may read the sales rank.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPARISON_CSV_FIELDS } from '@app/domain/comparison';
import { validateRuleSet } from '@app/domain/rules';
import { bearer, createUser, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { seedComparisonJob, seedLookup } from './helpers/seed-lookups.ts';

const ISBN = (n: number) => `978000000100${n}`;

describe.each(ENGINES)('Amazon in the comparison on %s', (engine) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let jobId: number;
  const compare = (filters: unknown[], qs = '') =>
    t.app.inject({ method: 'POST', url: `/api/v1/jobs/${jobId}/comparison${qs}`, headers: bearer(owner.token), payload: { filters } });

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await createUser(t, 'amazon-compare@example.com');
    jobId = await seedComparisonJob(t.ctx.db, owner.id, ['abe_books', 'amazon']);
    const abe = 'abe_books_price_lookups';
    const amazon = 'amazon_price_lookups';
    await seedLookup(t.ctx.db, abe, jobId, ISBN(1), { total_listing_price: 10 });
    await seedLookup(t.ctx.db, abe, jobId, ISBN(2), { total_listing_price: 10 });
    await seedLookup(t.ctx.db, abe, jobId, ISBN(3), { total_listing_price: 10 });
    // 1: used offers, Amazon cheapest. 2: only new offers (the new price stands in). 3: no offers, a rank all the same.
    await seedLookup(t.ctx.db, amazon, jobId, ISBN(1), {
      title: 'Ranked',
      sales_rank: 12_345,
      lowest_used_price: 8,
      lowest_new_price: 12,
      buy_box_price: 9,
    });
    await seedLookup(t.ctx.db, amazon, jobId, ISBN(2), { sales_rank: 500_000, lowest_new_price: 20 });
    await seedLookup(t.ctx.db, amazon, jobId, ISBN(3), { status: 'no_offers_available', sales_rank: 2_000_000 });
  });
  afterAll(() => t?.close());

  it('gives Amazon’s price, rank, lowest used/new and Buy Box, and profit after Amazon’s fees', async () => {
    const res = await compare([]);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as Record<string, unknown>[];
    expect(
      rows.map((r) => [r.isbn, r.amazon_price, r.amazon_sales_rank, r.amazon_lowest_used, r.amazon_lowest_new, r.amazon_buy_box]),
    ).toEqual([
      [ISBN(1), 8, 12_345, 8, 12, 9],
      [ISBN(2), 20, 500_000, null, 20, null],
      [ISBN(3), null, 2_000_000, null, null, null],
    ]);
    expect(rows[0]).toMatchObject({ best_source: 'Amazon', best_price: 8, amazon_status: 'completed' });
    // 8 − 15 % (1.20) − the $1.80 closing fee.
    expect(rows[0]!.estimated_profit).toBeCloseTo(5, 6);
    expect(rows[1]).toMatchObject({ best_source: 'Abe Books', best_price: 10 });
  });

  it('filters and sorts on the sales rank', async () => {
    const isbns = async (filters: unknown[], qs = '') =>
      ((await compare(filters, qs)).json().data as { isbn: string }[]).map((r) => r.isbn);
    expect(await isbns([{ field: 'amazon_sales_rank', operator: 'lt', value: '1000000' }])).toEqual([ISBN(1), ISBN(2)]);
    expect(await isbns([], '?sort_by=amazon_sales_rank&sort_direction=desc')).toEqual([3, 2, 1].map(ISBN));
    expect(await isbns([{ field: 'amazon_buy_box', operator: 'gte', value: '9' }])).toEqual([ISBN(1)]);
  });

  it('exports the Amazon columns in the CSV', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/jobs/${jobId}/comparison/download-csv`,
      headers: bearer(owner.token),
      payload: { filters: [] },
    });
    expect(res.statusCode).toBe(200);
    const records: string[][] = parse(res.body);
    const col = (name: string) => COMPARISON_CSV_FIELDS.findIndex((f) => f.name === name);
    for (const label of ['Amazon', 'Amazon Sales Rank', 'Amazon Lowest Used', 'Amazon Lowest New', 'Amazon Buy Box'])
      expect(records[0]).toContain(label);
    expect(records[1]![col('amazon_sales_rank')]).toBe('12345');
  });

  it('a buy rule may read the sales rank', () => {
    const draft = {
      name: 'Fast sellers',
      rules: [{ outcome: 'Buy', color: 'green', conditions: [{ field: 'amazon_sales_rank', operator: 'lte', value: '100000' }] }],
    };
    expect(validateRuleSet(draft)).toEqual([]);
  });
});
