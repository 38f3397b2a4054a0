// Profit after fees through the HTTP API on one engine: the sourced default schedules, a
// superuser's edit and reset (and who may do either), a job's cost per book typed or from a pallet,
// and the comparison's estimated_profit (the best source's fees, the cost, filters and sort).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';
import { seedComparisonJob, seedLookup } from './helpers/seed-lookups.ts';

const ISBN = (n: number) => `978100000000${n}`;

// Engine-neutral (ONE_ENGINE says why): the same statements through the query builder on both engines.
describe.each(ONE_ENGINE)('profit after fees on %s', (engine) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let admin: string;
  let jobId: number;
  let emptyJob: number;

  const call = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
  type Schedule = { percent: number; is_default: boolean; updated_at: string; default: { percent: number } };
  const schedules = async (token = owner.token) => (await call('GET', '/fee-schedules', token)).json().data as Schedule[];
  const setFees = (market: string, body: object, token = admin) => call('PUT', `/fee-schedules/${market}`, token, body);
  const setCost = (body: object, token = owner.token, job = jobId) => call('PUT', `/jobs/${job}/cost`, token, body);
  const compare = async (filters: unknown[] = [], qs = '') => {
    const res = await call('POST', `/jobs/${jobId}/comparison${qs}`, owner.token, { filters });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { isbn: string; best_source: string | null; estimated_profit: number | null }[];
  };
  /** estimated_profit per ISBN, in upload order. */
  const profits = async () => (await compare()).map((r) => r.estimated_profit);
  const expectProfits = async (expected: (number | null)[]) => {
    const got = await profits();
    expect(got.length).toBe(expected.length);
    expected.forEach((e, i) => {
      if (e === null) expect(got[i], `row ${i + 1}`).toBeNull();
      else expect(got[i], `row ${i + 1}`).toBeCloseTo(e, 9);
    });
  };
  const detailLoc = (res: { json(): { detail: unknown } }) => (res.json().detail as { loc: string[] }[]).map((d) => d.loc.join('.'));

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await createUser(t, 'fees-owner@example.com');
    other = await createUser(t, 'fees-other@example.com');
    admin = await login(t.app, ADMIN.email, ADMIN.password);
    jobId = await seedComparisonJob(t.ctx.db, owner.id, ['abe_books', 'biblio', 'alibris', 'pallet_iq']);
    const abe = 'abe_books_price_lookups';
    const biblio = 'biblio_price_lookups';
    const alibris = 'alibris_price_lookups';
    // 1: AbeBooks best at 20 (its total with shipping). 2: Biblio best at 10 + 2 shipping.
    // 3: Alibris best at 8. 4: no price anywhere, so no profit. 5: AbeBooks alone at 4, where 8 % is
    // below its $0.50 minimum commission.
    await seedLookup(t.ctx.db, abe, jobId, ISBN(1), { total_listing_price: 20, listing_price: 16 });
    await seedLookup(t.ctx.db, abe, jobId, ISBN(2), { status: 'no_offers_available' });
    await seedLookup(t.ctx.db, abe, jobId, ISBN(3), { total_listing_price: 40 });
    await seedLookup(t.ctx.db, abe, jobId, ISBN(4), { status: 'no_offers_available' });
    await seedLookup(t.ctx.db, biblio, jobId, ISBN(1), { price: 25, currency: 'USD' });
    await seedLookup(t.ctx.db, biblio, jobId, ISBN(2), { price: 10, shipping_price: 2, currency: 'USD' });
    await seedLookup(t.ctx.db, biblio, jobId, ISBN(3), { price: 50, currency: 'USD' });
    await seedLookup(t.ctx.db, biblio, jobId, ISBN(4), { status: 'failed', error: 'HTTP 500' });
    await seedLookup(t.ctx.db, alibris, jobId, ISBN(1), { price: 30 });
    await seedLookup(t.ctx.db, alibris, jobId, ISBN(2), { price: 15 });
    await seedLookup(t.ctx.db, alibris, jobId, ISBN(3), { price: 8 });
    await seedLookup(t.ctx.db, alibris, jobId, ISBN(4), { status: 'no_offers_available' });
    await seedLookup(t.ctx.db, abe, jobId, ISBN(5), { total_listing_price: 4 });
    await seedLookup(t.ctx.db, biblio, jobId, ISBN(5), { status: 'no_offers_available' });
    await seedLookup(t.ctx.db, alibris, jobId, ISBN(5), { status: 'no_offers_available' });
    for (let n = 1; n <= 5; n++) await seedLookup(t.ctx.db, 'pallet_iq_price_lookups', jobId, ISBN(n), { status: 'queued', attempts: 0 });
    await t.ctx.db.execute(
      sql`INSERT INTO job_progress (job_id, source, total, processed) VALUES (${jobId}, 'abe_books', 5, 5), (${jobId}, 'biblio', 5, 5),
          (${jobId}, 'alibris', 5, 5), (${jobId}, 'pallet_iq', 5, 0)`,
    );
    emptyJob = await seedComparisonJob(t.ctx.db, owner.id, ['abe_books']);
  });
  afterAll(() => t.close());

  it('lists every selling marketplace’s default with its source, date and certainty', async () => {
    const res = await call('GET', '/fee-schedules', other.token);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.map((s: { marketplace: string }) => s.marketplace)).toEqual(['abe_books', 'biblio', 'alibris', 'amazon', 'ebay']);
    expect(data[0]).toMatchObject({
      marketplace: 'abe_books',
      percent: 8,
      min_commission: 0.5,
      max_commission: 40,
      fixed: 0,
      shipping_credit: 0,
      is_default: true,
      updated_by: null,
      updated_at: null,
      default: { percent: 8, certainty: 'CONFIRMED', as_of: '2008-04-28', source_url: expect.stringContaining('abebooks.com') },
    });
    expect(data[1].default).toMatchObject({ percent: 15, certainty: 'HISTORICAL' });
    expect(data[2].default).toMatchObject({ percent: 20, certainty: 'UNCERTAIN' });
    // eBay's final value fee for books plus the per-order fee of orders over $10 (docs/features/fees.md,
    // The defaults).
    expect(data[4]).toMatchObject({
      percent: 15.3,
      fixed: 0.4,
      default: { certainty: 'CONFIRMED', source_url: expect.stringContaining('ebay.com') },
    });
  });

  it('estimates the profit at the best price with the best source’s default fees; none without a best price', async () => {
    const rows = await compare();
    expect(rows.map((r) => r.best_source)).toEqual(['Abe Books', 'Biblio', 'Alibris', null, 'Abe Books']);
    // 20 − 8 %; 12 − 15 %; 8 − 20 %; none; 4 − the $0.50 minimum.
    await expectProfits([18.4, 10.2, 6.4, null, 3.5]);
  });

  it('uses a superuser’s schedule until it is reset, and says who set it and when', async () => {
    const res = await setFees('abe-books', { percent: 10, fixed: 1, shipping_credit: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const abe = (await schedules())[0]!;
    expect(abe).toMatchObject({
      percent: 10,
      min_commission: null,
      max_commission: null,
      fixed: 1,
      shipping_credit: 2,
      is_default: false,
      updated_by: { email: ADMIN.email },
    });
    expect(Date.now() - new Date(abe.updated_at).getTime()).toBeLessThan(60_000);
    expect(abe.default.percent).toBe(8);
    // 20 − 2 − 1 + 2 and 4 − 0.40 − 1 + 2 (no minimum now); the other rows' best sources are unchanged.
    await expectProfits([19, 10.2, 6.4, null, 4.6]);
    // A maximum caps the commission: 20 − min(2, 1.5).
    await setFees('abe-books', { percent: 10, max_commission: 1.5, fixed: 0, shipping_credit: 0 });
    await expectProfits([18.5, 10.2, 6.4, null, 3.6]);

    const reset = await call('DELETE', '/fee-schedules/abe-books', admin);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data[0]).toMatchObject({ percent: 8, min_commission: 0.5, is_default: true, updated_by: null });
    await expectProfits([18.4, 10.2, 6.4, null, 3.5]);
  });

  it('records fee schedule edits and resets, and cost changes, in the audit trail with the figures before and after', async () => {
    const events = async (action: string) =>
      (
        await call('POST', '/audit-events?sort_by=id&sort_direction=desc', admin, {
          filters: [{ field: 'action', operator: 'equals', value: action }],
        })
      ).json().data as {
        actor_email: string;
        target_type: string;
        target_id: string;
        target_label: string;
        details: Record<string, unknown>;
      }[];
    expect((await setFees('biblio', { percent: 12, fixed: 0.25, shipping_credit: 0 })).statusCode).toBe(200);
    const [updated] = await events('fee_schedule.updated');
    expect(updated).toMatchObject({ actor_email: ADMIN.email, target_type: 'fee_schedule', target_id: 'biblio', target_label: 'Biblio' });
    expect(updated?.details.before).toMatchObject({ percent: 15 });
    expect(updated?.details.after).toMatchObject({ percent: 12, fixed: 0.25 });
    expect((await call('DELETE', '/fee-schedules/biblio', admin)).statusCode).toBe(200);
    const [reset] = await events('fee_schedule.reset');
    expect(reset).toMatchObject({ target_id: 'biblio' });
    expect(reset?.details).toMatchObject({ before: { percent: 12 }, after: { percent: 15 } });

    expect((await setCost({ pallet_cost: 10 })).statusCode).toBe(200);
    expect((await setCost({ cost_per_book: null })).statusCode).toBe(200);
    const [cleared, fromPallet] = await events('job.cost_set');
    expect(fromPallet).toMatchObject({ target_type: 'job', target_id: String(jobId) });
    expect(fromPallet?.details).toEqual({ cost_per_book_before: null, cost_per_book_after: 2, pallet_cost: 10 });
    expect(cleared?.details).toEqual({ cost_per_book_before: 2, cost_per_book_after: null });
  });

  it('lets only superusers change schedules: anonymous 401, a user 403', async () => {
    const body = { percent: 1, fixed: 0, shipping_credit: 0 };
    expect((await call('GET', '/fee-schedules', '')).statusCode).toBe(401);
    expect((await setFees('biblio', body, '')).statusCode).toBe(401);
    expect((await call('DELETE', '/fee-schedules/biblio', '')).statusCode).toBe(401);
    expect((await setFees('biblio', body, owner.token)).statusCode).toBe(403);
    expect((await call('DELETE', '/fee-schedules/biblio', owner.token)).statusCode).toBe(403);
    expect((await schedules())[1]).toMatchObject({ percent: 15, is_default: true });
  });

  it('refuses out-of-range, missing and non-number figures and non-selling marketplaces with a 422 naming the field', async () => {
    const ok = { percent: 8, fixed: 0, shipping_credit: 0 };
    const cases: [string, object, string][] = [
      ['abe-books', { ...ok, percent: 100.5 }, 'body.percent'],
      ['abe-books', { ...ok, percent: -1 }, 'body.percent'],
      ['abe-books', { ...ok, fixed: -0.01 }, 'body.fixed'],
      ['abe-books', { ...ok, fixed: 1000.01 }, 'body.fixed'],
      ['abe-books', { ...ok, shipping_credit: 5000 }, 'body.shipping_credit'],
      ['abe-books', { ...ok, min_commission: -1 }, 'body.min_commission'],
      ['abe-books', { ...ok, min_commission: 2, max_commission: 1 }, 'body.max_commission'],
      ['abe-books', { ...ok, percent: '8' }, 'body.percent'],
      ['abe-books', { fixed: 0, shipping_credit: 0 }, 'body.percent'],
      ['pallet-iq', ok, 'path.market'],
      ['nowhere', ok, 'path.market'],
    ];
    for (const [market, body, loc] of cases) {
      const res = await setFees(market, body);
      expect(res.statusCode, `${market} ${JSON.stringify(body)}`).toBe(422);
      expect(detailLoc(res)).toContain(loc);
    }
    expect(detailLoc(await call('DELETE', '/fee-schedules/pallet-iq', admin))).toEqual(['path.market']);
    // The limits themselves are allowed.
    expect((await setFees('alibris', { percent: 100, fixed: 1000, shipping_credit: 0 })).statusCode).toBe(200);
    expect((await call('DELETE', '/fee-schedules/alibris', admin)).statusCode).toBe(200);
  });

  it('takes a typed cost per book, shows it on the job and its summary, and subtracts it', async () => {
    const res = await setCost({ cost_per_book: 2.5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ cost_per_book: 2.5, pallet_cost: null });
    expect((await call('GET', `/jobs/${jobId}`, owner.token)).json().cost_per_book).toBe(2.5);
    expect((await call('GET', `/jobs/${jobId}/summary`, owner.token)).json().cost_per_book).toBe(2.5);
    await expectProfits([15.9, 7.7, 3.9, null, 1]);
  });

  it('spreads a pallet’s cost over the job’s books, and clears the cost with null', async () => {
    const res = await setCost({ pallet_cost: 7.5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cost_per_book).toBe(1.5);
    // The pallet's total is kept, so the job page shows the division again after a reload.
    expect((await call('GET', `/jobs/${jobId}`, owner.token)).json()).toMatchObject({ cost_per_book: 1.5, pallet_cost: 7.5 });
    await expectProfits([16.9, 8.7, 4.9, null, 2]);
    // A typed cost per book forgets the pallet.
    expect((await setCost({ cost_per_book: 2 })).json()).toMatchObject({ cost_per_book: 2, pallet_cost: null });
    await setCost({ pallet_cost: 7.5 });
    expect((await setCost({ cost_per_book: null })).json()).toMatchObject({ cost_per_book: null, pallet_cost: null });
    await expectProfits([18.4, 10.2, 6.4, null, 3.5]);
    await setCost({ pallet_cost: 7.5 });
    expect((await setCost({ pallet_cost: null })).json()).toMatchObject({ cost_per_book: null, pallet_cost: null });
  });

  it('refuses a negative, non-number, double or missing cost, and a pallet over no books, with a 422 naming the field', async () => {
    const cases: [object, string][] = [
      [{ cost_per_book: -1 }, 'body.cost_per_book'],
      [{ pallet_cost: -0.5 }, 'body.pallet_cost'],
      [{ cost_per_book: 'cheap' }, 'body.cost_per_book'],
      [{ cost_per_book: 1e12 }, 'body.cost_per_book'],
      [{ cost_per_book: 1, pallet_cost: 10 }, 'body.pallet_cost'],
      [{}, 'body.cost_per_book'],
    ];
    for (const [body, loc] of cases) {
      const res = await setCost(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(detailLoc(res)).toContain(loc);
    }
    const overNothing = await setCost({ pallet_cost: 10 }, owner.token, emptyJob);
    expect(overNothing.statusCode).toBe(422);
    expect(detailLoc(overNothing)).toEqual(['body.pallet_cost']);
  });

  it('sets a job’s cost for its owner and superusers only: anonymous 401, another user 404', async () => {
    expect((await setCost({ cost_per_book: 1 }, '')).statusCode).toBe(401);
    expect((await setCost({ cost_per_book: 1 }, other.token)).statusCode).toBe(404);
    expect((await setCost({ cost_per_book: 1 }, admin)).statusCode).toBe(200);
    expect((await call('GET', `/jobs/${jobId}`, owner.token)).json().cost_per_book).toBe(1);
    await setCost({ cost_per_book: null });
  });

  it('filters and sorts by estimated profit, rows without one last', async () => {
    const isbns = (rows: { isbn: string }[]) => rows.map((r) => r.isbn);
    expect(isbns(await compare([{ field: 'estimated_profit', operator: 'gte', value: '10' }]))).toEqual([ISBN(1), ISBN(2)]);
    expect(isbns(await compare([{ field: 'estimated_profit', operator: 'lt', value: '0' }]))).toEqual([]);
    expect(isbns(await compare([], '?sort_by=estimated_profit&sort_direction=asc'))).toEqual([ISBN(5), ISBN(3), ISBN(2), ISBN(1), ISBN(4)]);
    expect(isbns(await compare([], '?sort_by=estimated_profit&sort_direction=desc'))).toEqual([
      ISBN(1),
      ISBN(2),
      ISBN(3),
      ISBN(5),
      ISBN(4),
    ]);
    // A cost above the sale makes the profit negative, and filterable as such.
    await setCost({ cost_per_book: 15 });
    expect(isbns(await compare([{ field: 'estimated_profit', operator: 'lt', value: '0' }]))).toEqual([ISBN(2), ISBN(3), ISBN(5)]);
    await setCost({ cost_per_book: null });
  });

  it("eBay's price with shipping is compared, filtered, sorted and in the CSV; when best, its fees make the profit", async () => {
    const job = await seedComparisonJob(t.ctx.db, owner.id, ['abe_books', 'ebay']);
    const [abe, ebay] = ['abe_books_price_lookups', 'ebay_price_lookups'];
    // 1: eBay best at 18 + 2 shipping. 2: AbeBooks best at 9 (eBay 12 + 1). 3: eBay has none.
    await seedLookup(t.ctx.db, abe, job, ISBN(1), { total_listing_price: 30 });
    await seedLookup(t.ctx.db, ebay, job, ISBN(1), { price: 18, shipping_cost: 2, currency: 'USD', seller_username: 'shelfwise' });
    await seedLookup(t.ctx.db, abe, job, ISBN(2), { total_listing_price: 9 });
    await seedLookup(t.ctx.db, ebay, job, ISBN(2), { price: 12, shipping_cost: 1, shipping_type: 'FIXED', currency: 'USD' });
    await seedLookup(t.ctx.db, abe, job, ISBN(3), { total_listing_price: 5 });
    await seedLookup(t.ctx.db, ebay, job, ISBN(3), { status: 'no_offers_available' });
    type Row = { isbn: string; ebay_price: number | null; best_source: string | null; estimated_profit: number | null };
    const rows = async (filters: unknown[] = [], qs = '') => {
      const res = await call('POST', `/jobs/${job}/comparison${qs}`, owner.token, { filters });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Row[];
    };
    const all = await rows();
    expect(all.map((r) => [r.ebay_price, r.best_source])).toEqual([
      [20, 'eBay'],
      [13, 'Abe Books'],
      [null, 'Abe Books'],
    ]);
    // 20 − 15.3 % − $0.40 per order.
    expect(all[0]!.estimated_profit).toBeCloseTo(20 - 20 * 0.153 - 0.4, 9);
    expect((await rows([{ field: 'ebay_price', operator: 'lt', value: '15' }])).map((r) => r.isbn)).toEqual([ISBN(2)]);
    expect((await rows([], '?sort_by=ebay_price&sort_direction=desc')).map((r) => r.ebay_price)).toEqual([20, 13, null]);
    const csv = await call('POST', `/jobs/${job}/comparison/download-csv`, owner.token, { filters: [] });
    const [header, first] = csv.body.split(/\r?\n/);
    const cols = header!.split(',');
    expect(Number(first!.split(',')[cols.indexOf('eBay')])).toBe(20);
  });

  it("eBay's price with unknown shipping (CALCULATED, no cost for any listing) is no delivered price: never the best", async () => {
    const job = await seedComparisonJob(t.ctx.db, owner.id, ['abe_books', 'ebay']);
    await seedLookup(t.ctx.db, 'abe_books_price_lookups', job, ISBN(1), { total_listing_price: 9 });
    await seedLookup(t.ctx.db, 'ebay_price_lookups', job, ISBN(1), { price: 3, shipping_type: 'CALCULATED', currency: 'USD' });
    const res = await call('POST', `/jobs/${job}/comparison`, owner.token, { filters: [] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject([{ ebay_price: null, ebay_currency: null, best_price: 9, best_source: 'Abe Books' }]);
  });

  it('puts the estimated profit in the comparison CSV after the spread', async () => {
    const res = await call('POST', `/jobs/${jobId}/comparison/download-csv`, owner.token, { filters: [] });
    expect(res.statusCode).toBe(200);
    const [header, first] = res.body.split(/\r?\n/);
    const cols = header!.split(',');
    expect(cols.indexOf('Estimated Profit')).toBe(cols.indexOf('Spread') + 1);
    expect(Number(first!.split(',')[cols.indexOf('Estimated Profit')])).toBeCloseTo(18.4, 9);
  });
});
