// Velocity figures (docs/features/velocity.md) exactly from known rank series on both engines: drops
// over 30 / 90 / 180 days, time-weighted average ranks, days with a sale, the observation count, a
// Keepa -1 gap (no rank: neither averaged nor a drop when the rank comes back), and Keepa's series
// preferred over our own looks. Every figure below is worked out by hand in the comments.
import { eq } from 'drizzle-orm';
import { VELOCITY_FIELDS } from '@app/domain/velocity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookVelocity, priceObservations } from '../src/db/schema.ts';
import { refreshVelocity } from '../src/velocity/compute.ts';
import { ADMIN, bearer, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { rule } from './helpers/rule-sets.ts';
import { seedJob } from './helpers/worker.ts';

const AS_OF = new Date('2026-06-01T00:00:00Z');
const DAY = 86_400_000;
const at = (daysBefore: number) => new Date(AS_OF.getTime() - daysBefore * DAY);

// Valid ISBN-13s no other test uses.
const OURS = '9781000000016';
const KEEPA = '9781000000023';
const NONE = '9781000000030';

describe.each(ENGINES)('velocity on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  const observe = (marketplace: string, isbn: string, points: [number, number | null][]) =>
    t.ctx.db.insert(priceObservations).values(
      points.map(([daysBefore, rank]) => ({
        marketplace,
        isbn,
        observed_at: at(daysBefore),
        status: 'completed',
        sales_rank: rank,
      })),
    );

  it('figures from a known series, exactly', async () => {
    // Our own looks: 100k (before the 180-day window) → 50k (drop: better by > 10 %) → 49k (not by
    // more than 10 %) → 60k (worse) → 30k (drop) → 20k six hours later (drop, same UTC day) → 25k → 10k (drop).
    await observe('amazon', OURS, [
      [200, 100_000],
      [170, 50_000],
      [100, 49_000],
      [80, 60_000],
      [60, 30_000],
      [60 - 0.25, 20_000],
      [20, 25_000],
      [10, 10_000],
    ]);
    // Keepa's: 80k, a -1 gap (no rank) from day -50, 40k from day -40 (after a gap: no drop), 20k (drop).
    await observe('keepa', KEEPA, [
      [100, 80_000],
      [50, null],
      [40, 40_000],
      [5, 20_000],
    ]);
    // Our look at the Keepa book is left aside: Keepa's series is the source when present.
    await observe('amazon', KEEPA, [[1, 5]]);

    await refreshVelocity(t.ctx.db, [OURS, KEEPA, NONE], AS_OF);
    const read = async (isbn: string) => (await t.ctx.db.select().from(bookVelocity).where(eq(bookVelocity.isbn, isbn)))[0];

    const ours = await read(OURS);
    expect(ours).toMatchObject({
      source: 'amazon',
      // Ranked points within 180 days: days 170, 100, 80, 60, 59.75, 20, 10.
      observations: 7,
      rank_drops_30: 1, // day 10
      rank_drops_90: 3, // days 60, 59.75, 10
      rank_drops_180: 4, // and day 170
      sale_days_180: 3, // days 170, 60 (twice), 10
      computed_at: AS_OF,
    });
    // 90 days: 49k×10 + 60k×20 + 30k×0.25 + 20k×39.75 + 25k×10 + 10k×10 = 2,842,500 rank-days / 90.
    expect(ours?.avg_rank_90).toBe(31_583); // 31,583.33 rounded
    // 180 days: 100k×10 + 50k×70 + 49k×20 + (the 80 days above from day 80: 2,352,500) = 7,832,500 / 180.
    expect(ours?.avg_rank_180).toBe(43_514); // 43,513.89 rounded

    const keepa = await read(KEEPA);
    expect(keepa).toMatchObject({
      source: 'keepa',
      observations: 3, // days 100, 40, 5 (the gap has no rank)
      rank_drops_30: 1, // day 5; 40k after the gap is not a drop
      rank_drops_90: 1,
      rank_drops_180: 1,
      sale_days_180: 1,
    });
    // 90 days: 80k×40 + (gap, 10 days, not counted) + 40k×35 + 20k×5 = 4,700,000 / 80 ranked days.
    expect(keepa?.avg_rank_90).toBe(58_750); // exactly
    // 180 days: nothing before day 100; 80k×50 + 40k×35 + 20k×5 = 5,500,000 / 90 ranked days.
    expect(keepa?.avg_rank_180).toBe(61_111); // 61,111.11 rounded

    // No ranks at all: zero observations, no average, nothing sold.
    expect(await read(NONE)).toMatchObject({
      source: 'amazon',
      observations: 0,
      rank_drops_180: 0,
      sale_days_180: 0,
      avg_rank_90: null,
      avg_rank_180: null,
    });

    // The comparison shows them per ISBN: filterable, sortable, in the CSV (the rules read the same SQL).
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const jobId = await seedJob(t.ctx.db, [OURS, KEEPA, NONE], ['abe_books']);
    const compare = async (filters: unknown[], qs = '') => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/jobs/${jobId}/comparison${qs}`,
        headers: bearer(admin),
        payload: { filters },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: Record<string, unknown>[] }).data;
    };
    const all = await compare([], '?sort_by=sale_days_180&sort_direction=desc');
    expect(all.map((r) => [r.isbn, r.sale_days_180, r.velocity_observations, r.velocity_source])).toEqual([
      [OURS, 3, 7, 'amazon'],
      [KEEPA, 1, 3, 'keepa'],
      [NONE, 0, 0, 'amazon'],
    ]);
    expect(all[0]).toMatchObject({ rank_drops_30: 1, rank_drops_90: 3, rank_drops_180: 4 });
    const fast = await compare([{ field: 'sale_days_180', operator: 'gte', value: '2' }]);
    expect(fast.map((r) => r.isbn)).toEqual([OURS]);
    const ranked = await compare([{ field: 'avg_rank_90', operator: 'lt', value: '40000' }]);
    expect(ranked.map((r) => r.isbn)).toEqual([OURS]);
    const csv = await t.app.inject({
      method: 'POST',
      url: `/api/v1/jobs/${jobId}/comparison/download-csv`,
      headers: bearer(admin),
      payload: { filters: [] },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    const [header] = csv.body.split(/\r?\n/);
    for (const f of VELOCITY_FIELDS) expect(header, f.label).toContain(f.label);

    // A buy rule over velocity: "sells on 2 days or more in 180, and averages better than #50,000".
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/v1/rule-sets',
      headers: bearer(admin),
      payload: {
        name: 'Sells fast',
        rules: [
          rule('Fast', 'green', [
            ['sale_days_180', 'gte', '2'],
            ['avg_rank_180', 'lt', '50000'],
          ]),
          { outcome: 'Slow', color: 'red', conditions: [] },
        ],
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    const judged = await t.app.inject({
      method: 'POST',
      url: `/api/v1/jobs/${jobId}/judge`,
      headers: bearer(admin),
      payload: { rule_set_id: set.json().id },
    });
    expect(judged.statusCode, judged.body).toBe(200);
    expect(Object.fromEntries((await compare([])).map((r) => [r.isbn, r.decision]))).toEqual({
      [OURS]: 'Fast',
      [KEEPA]: 'Slow',
      [NONE]: 'Slow',
    });

    // Recomputed later, the windows move: as of 31 days on, day 10's drop is out of the 30-day count.
    await refreshVelocity(t.ctx.db, [OURS], new Date(AS_OF.getTime() + 21 * DAY));
    expect((await read(OURS))?.rank_drops_30).toBe(0);
  });
});
