// A job's own page through the HTTP API: the run summary per marketplace, the comparison across
// marketplaces (prices, best source, spread, the currency rule, filters, sorts, paging, 422s), its
// CSV, the price distribution, and who may read them.
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPARISON_CSV_FIELDS } from '@app/domain/comparison';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { seedComparisonJob, seedLookup, type Seeded } from './helpers/seed-lookups.ts';

const ISBN = (n: number) => `978000000000${n}`;

describe.each(ENGINES)('job page on %s', (engine) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let adminToken: string;
  let jobId: number;
  let abeOnlyJob: number;

  const insertJob = (ownerId: string, flags: string[]) => seedComparisonJob(t.ctx.db, ownerId, flags);
  const insertLookup = (table: string, job: number, isbn: string, row: Seeded) => seedLookup(t.ctx.db, table, job, isbn, row);

  const post = (token: string, url: string, payload: object = { filters: [] }) =>
    t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });
  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
  const compare = (filters: unknown[], qs = '', job = jobId) => post(owner.token, `/api/v1/jobs/${job}/comparison${qs}`, { filters });
  const isbns = async (filters: unknown[], qs = '') => (await compare(filters, qs)).json().data.map((r: { isbn: string }) => r.isbn);

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await createUser(t, 'page-owner@example.com');
    other = await createUser(t, 'page-other@example.com');
    adminToken = await login(t.app, ADMIN.email, ADMIN.password);
    jobId = await insertJob(owner.id, ['abe_books', 'biblio', 'alibris', 'pallet_iq']);
    const abe = 'abe_books_price_lookups';
    const biblio = 'biblio_price_lookups';
    const alibris = 'alibris_price_lookups';
    const palletIq = 'pallet_iq_price_lookups';
    // 1: Alibris cheapest; Biblio's shipping counts. 2: AbeBooks without a total (the bare price
    // stands in), Biblio in euros (shown, never compared), so one comparable price and no spread.
    // 3: a tie goes to the first marketplace. 4: nothing yet. 5: AbeBooks failed; Biblio's empty currency is USD.
    await insertLookup(abe, jobId, ISBN(1), { title: 'One', total_listing_price: 10, listing_price: 8, minutesAgo: 10 });
    await insertLookup(abe, jobId, ISBN(2), { listing_price: 20 });
    await insertLookup(abe, jobId, ISBN(3), { total_listing_price: 7 });
    await insertLookup(abe, jobId, ISBN(4), {
      status: 'queued',
      attempts: 2,
      retryInMinutes: 30,
      error: 'Rate limited (429)',
      minutesAgo: 1,
    });
    await insertLookup(abe, jobId, ISBN(5), { status: 'failed', attempts: 3, error: 'HTTP 500 (gave up after 3 attempts)', minutesAgo: 2 });
    await insertLookup(biblio, jobId, ISBN(1), { price: 12, shipping_price: 1, currency: 'USD' });
    await insertLookup(biblio, jobId, ISBN(2), { title: 'Deux', price: 15, currency: 'eur' });
    await insertLookup(biblio, jobId, ISBN(3), { price: 7, currency: 'USD' });
    await insertLookup(biblio, jobId, ISBN(4), { status: 'failed', error: 'HTTP 500 (gave up after 3 attempts)' });
    await insertLookup(biblio, jobId, ISBN(5), { price: 5, currency: '' });
    await insertLookup(alibris, jobId, ISBN(1), { price: 9 });
    await insertLookup(alibris, jobId, ISBN(2), { status: 'no_offers_available' });
    await insertLookup(alibris, jobId, ISBN(3), { price: 30 });
    // A status this code does not know yet still shows.
    await insertLookup(alibris, jobId, ISBN(4), { status: 'cancelled' });
    await insertLookup(alibris, jobId, ISBN(5), { price: 6 });
    await insertLookup(palletIq, jobId, ISBN(1), { winner_amazon_log_data_mp_decision: 'BUY', winner_amazon_log_data_mm_val: 5 });
    for (const n of [2, 3, 4, 5]) await insertLookup(palletIq, jobId, ISBN(n), { status: 'queued', attempts: 0 });
    await t.ctx.db.execute(
      sql`INSERT INTO job_progress (job_id, source, total, processed) VALUES (${jobId}, 'abe_books', 5, 4), (${jobId}, 'biblio', 5, 5),
          (${jobId}, 'alibris', 5, 5), (${jobId}, 'pallet_iq', 5, 1)`,
    );
    abeOnlyJob = await insertJob(owner.id, ['abe_books']);
    await insertLookup(abe, abeOnlyJob, ISBN(9), { total_listing_price: 3, title: 'Alone' });
  });
  afterAll(() => t.close());

  it('summarises the run per marketplace: statuses, progress, timing, retries and errors', async () => {
    const res = await get(owner.token, `/api/v1/jobs/${jobId}/summary`);
    expect(res.statusCode).toBe(200);
    const sources = res.json().sources as Record<string, unknown>[];
    expect(sources.map((s) => s.marketplace)).toEqual(['abe_books', 'biblio', 'alibris', 'pallet_iq']);
    const [abe, biblio, alibris, palletIq] = sources;
    expect(abe).toMatchObject({
      total: 5,
      processed: 4,
      statuses: [
        { status: 'queued', count: 1 },
        { status: 'completed', count: 3 },
        { status: 'failed', count: 1 },
      ],
      retry_waiting: 1,
      finished_at: null,
      errors: [
        { message: 'HTTP 500 (gave up after 3 attempts)', count: 1 },
        { message: 'Rate limited (429)', count: 1 },
      ],
    });
    // Started with the earliest claimed row (10 minutes ago); 4 done since: about 0.4 a minute.
    expect(Date.now() - Date.parse(abe!.started_at as string)).toBeGreaterThan(9.9 * 60_000);
    expect(abe!.throughput_per_minute).toBeCloseTo(0.4, 1);
    // Done: finished when its last lookup finished, throughput over the whole run.
    expect(biblio).toMatchObject({
      processed: 5,
      retry_waiting: 0,
      errors: [{ message: 'HTTP 500 (gave up after 3 attempts)', count: 1 }],
    });
    expect(Date.parse(biblio!.finished_at as string)).toBeGreaterThan(Date.parse(biblio!.started_at as string) - 1);
    expect(alibris!.statuses).toEqual([
      { status: 'completed', count: 3 },
      { status: 'no_offers_available', count: 1 },
      { status: 'cancelled', count: 1 },
    ]);
    expect(palletIq).toMatchObject({ processed: 1, retry_waiting: 0, errors: [] });
  });

  it('compares every ISBN across marketplaces: cheapest USD total, best source, spread, PalletIQ', async () => {
    const res = await compare([]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: 5, count_exact: true });
    const rows = res.json().data as Record<string, unknown>[];
    expect(rows.map((r) => r.isbn)).toEqual([1, 2, 3, 4, 5].map(ISBN));
    expect(rows[0]).toMatchObject({
      title: 'One',
      abe_books_price: 10,
      abe_books_currency: 'USD',
      biblio_price: 13,
      alibris_price: 9,
      best_price: 9,
      best_source: 'Alibris',
      spread: 4,
      pallet_iq_decision: 'BUY',
      pallet_iq_value: 5,
      abe_books_status: 'completed',
      pallet_iq_status: 'completed',
    });
    expect(rows[1]).toMatchObject({
      title: 'Deux',
      abe_books_price: 20,
      biblio_price: 15,
      biblio_currency: 'EUR',
      alibris_price: null,
      alibris_currency: null,
      alibris_status: 'no_offers_available',
      best_price: 20,
      best_source: 'Abe Books',
      spread: null,
    });
    expect(rows[2]).toMatchObject({ best_price: 7, best_source: 'Abe Books', spread: 23 });
    expect(rows[3]).toMatchObject({ best_price: null, best_source: null, spread: null, pallet_iq_status: 'queued' });
    expect(rows[4]).toMatchObject({ biblio_currency: 'USD', best_price: 5, best_source: 'Biblio', spread: 1 });
  });

  it('filters and sorts on the computed columns, and pages', async () => {
    // Empty values sort last either way; ties in the sort's direction of the upload order.
    expect(await isbns([], '?sort_by=spread&sort_direction=desc')).toEqual([3, 1, 5, 4, 2].map(ISBN));
    expect(await isbns([], '?sort_by=best_price&sort_direction=asc')).toEqual([5, 3, 1, 2, 4].map(ISBN));
    expect(await isbns([{ field: 'best_source', operator: 'equals', value: 'Biblio' }])).toEqual([ISBN(5)]);
    expect(await isbns([{ field: 'spread', operator: 'gt', value: '2' }])).toEqual([ISBN(1), ISBN(3)]);
    expect(
      await isbns([
        { field: 'best_price', operator: 'lte', value: '9' },
        { field: 'title', operator: 'contains', value: 'on' },
      ]),
    ).toEqual([ISBN(1)]);
    expect(await isbns([{ field: 'biblio_currency', operator: 'equals', value: 'EUR' }])).toEqual([ISBN(2)]);
    expect(await isbns([{ field: 'alibris_status', operator: 'equals', value: 'cancelled' }])).toEqual([ISBN(4)]);
    const page2 = await compare([{ field: 'best_price', operator: 'gte', value: '0' }], '?skip=2&limit=2&sort_by=best_price');
    expect(page2.json()).toMatchObject({ count: 4, count_exact: true });
    expect(page2.json().data.map((r: { isbn: string }) => r.isbn)).toEqual([ISBN(1), ISBN(2)]);
  });

  it('leaves out the marketplaces a job does not ask', async () => {
    const res = await compare([], '', abeOnlyJob);
    expect(res.json().data).toEqual([
      expect.objectContaining({
        isbn: ISBN(9),
        title: 'Alone',
        abe_books_price: 3,
        biblio_price: null,
        best_source: 'Abe Books',
        spread: null,
      }),
    ]);
  });

  it('names an unknown field, operator or sort key in a 422', async () => {
    const f = await compare([{ field: 'listing_price', operator: 'equals', value: '1' }]);
    expect(f.statusCode).toBe(422);
    expect(f.json().detail[0]).toMatchObject({ loc: ['body', 'filters', 0, 'field'], msg: "Unknown filter field 'listing_price'" });
    const o = await compare([{ field: 'spread', operator: 'contains', value: '1' }]);
    expect(o.json().detail[0].loc).toEqual(['body', 'filters', 0, 'operator']);
    const v = await compare([{ field: 'spread', operator: 'gt', value: 'lots' }]);
    expect(v.json().detail[0].loc).toEqual(['body', 'filters', 0, 'value']);
    const s = await compare([], '?sort_by=offers');
    expect(s.json().detail[0]).toMatchObject({ loc: ['query', 'sort_by'], msg: "Unknown sort field 'offers'" });
    const id = await get(owner.token, '/api/v1/jobs/abc/summary');
    expect(id.statusCode).toBe(422);
    expect(id.json().detail[0].loc).toEqual(['path', 'id']);
  });

  it('exports the filtered, sorted comparison as CSV: the page’s rows, every column but the row id', async () => {
    const filters = [{ field: 'best_price', operator: 'gte', value: '0' }];
    const res = await post(owner.token, `/api/v1/jobs/${jobId}/comparison/download-csv`, {
      filters,
      sort_by: 'spread',
      sort_direction: 'desc',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`filename="job_${jobId}_comparison_\\d{8}T\\d{6}\\.csv"`));
    const records: string[][] = parse(res.body);
    expect(records[0]).toEqual(COMPARISON_CSV_FIELDS.map((f) => f.label));
    const col = (name: string) => COMPARISON_CSV_FIELDS.findIndex((f) => f.name === name);
    expect(records.slice(1).map((r) => r[col('isbn')])).toEqual([3, 1, 5, 2].map(ISBN));
    expect(records[3]![col('best_source')]).toBe('Biblio');
    expect(Number(records[1]![col('spread')])).toBe(23);
    expect(records[4]![col('biblio_currency')]).toBe('EUR');
    expect(records[4]![col('spread')]).toBe('');
  });

  it('counts USD prices per marketplace in price buckets, leaving other currencies out', async () => {
    const res = await get(owner.token, `/api/v1/jobs/${jobId}/price-distribution`);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ currency: 'USD', other_currency: 1 });
    expect(d.bucket_width).toBeGreaterThan(0);
    const total = (source: string) => d.buckets.reduce((n: number, b: { counts: Record<string, number> }) => n + b.counts[source]!, 0);
    expect([total('abe_books'), total('biblio'), total('alibris')]).toEqual([3, 3, 3]);
    // Each price sits in the bucket whose edges hold it: the cheapest (5) in the first.
    expect(d.buckets[0]).toMatchObject({ from: 0 });
    const holding = (price: number) =>
      d.buckets.find((b: { from: number; to: number | null }) => price >= b.from && (b.to === null || price < b.to));
    expect(holding(5).counts.biblio).toBeGreaterThanOrEqual(1);
    expect(holding(30).counts.alibris).toBe(1);
    const empty = await get(owner.token, `/api/v1/jobs/${abeOnlyJob}/price-distribution`);
    expect(
      empty
        .json()
        .buckets.map((b: { counts: Record<string, number> }) => b.counts.abe_books)
        .reduce((a: number, b: number) => a + b),
    ).toBe(1);
  });

  it('is for the job’s owner and superusers: anonymous 401, another user 404', async () => {
    const routes: [string, (token: string) => Promise<{ statusCode: number }>][] = [
      ['summary', (tk) => get(tk, `/api/v1/jobs/${jobId}/summary`)],
      ['comparison', (tk) => post(tk, `/api/v1/jobs/${jobId}/comparison`)],
      ['comparison csv', (tk) => post(tk, `/api/v1/jobs/${jobId}/comparison/download-csv`)],
      ['price distribution', (tk) => get(tk, `/api/v1/jobs/${jobId}/price-distribution`)],
    ];
    for (const [name, call] of routes) {
      expect((await call('')).statusCode, `${name} anonymous`).toBe(401);
      expect((await call(owner.token)).statusCode, `${name} owner`).toBe(200);
      expect((await call(other.token)).statusCode, `${name} another user`).toBe(404);
      expect((await call(adminToken)).statusCode, `${name} superuser`).toBe(200);
    }
    expect((await get(owner.token, '/api/v1/jobs/999999/summary')).statusCode).toBe(404);
  });
});
