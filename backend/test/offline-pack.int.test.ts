// GET /scan/offline-pack on both engines: the team's latest answers within OFFLINE_PACK_DAYS as
// compact columns (prices in cents), gzipped, with the rule sets and fees; a delta holds only the
// ISBNs answered since the version given; a "decisions only" account gets outcomes and no figure,
// the same outcome a scan gets from the server; anonymous callers are refused.
import { gunzipSync } from 'node:zlib';
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import type { FiguresPack, VerdictPack } from '@app/domain/offline-pack';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createUser, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { insertRuleSet, rule } from './helpers/rule-sets.ts';
import { seedComparisonJob } from './helpers/seed-lookups.ts';

const FRESH = '9780306406157';
const OLD = '9780131457577';
const QUEUED = '9780262033848';
const LATER = '9781492052203';

describe.each(ENGINES)('offline pack on %s', (engine) => {
  let t: TestApp;
  let scout: { id: string; token: string };
  let hidden: { id: string; token: string };
  let jobId = 0;

  async function answer(table: string, isbn: string, minutesAgo: number, data: Record<string, string | number>, status = 'completed') {
    const names = Object.keys(data);
    await t.ctx.db.execute(sql`
      INSERT INTO ${sql.identifier(table)} (isbn_lookup_job_id, isbn, lookup_status, answered_at${sql.join(
        names.map((n) => sql`, ${sql.identifier(n)}`),
        sql``,
      )})
      VALUES (${jobId}, ${isbn}, ${status}, ${status === 'queued' ? null : sql`now() - ${minutesAgo}::int * interval '1 minute'`}${sql.join(
        names.map((n) => sql`, ${data[n]}`),
        sql``,
      )})`);
  }

  const get = (token: string | null, query = '', gzip = true) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/scan/offline-pack${query}`,
      headers: { ...(token ? bearer(token) : {}), ...(gzip ? { 'accept-encoding': 'gzip, deflate, br' } : {}) },
    });

  async function pack<T>(token: string, query = ''): Promise<{ pack: T; bytes: number }> {
    const res = await get(token, query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('no-store');
    return { pack: JSON.parse(gunzipSync(res.rawPayload).toString('utf8')) as T, bytes: res.rawPayload.length };
  }

  beforeAll(async () => {
    t = await startTestApp(engine, { env: { OFFLINE_PACK_DAYS: '30' } });
    scout = await createUser(t, 'scout@example.com');
    hidden = await createUser(t, 'hidden@example.com', 'user-password-1', { decisions_only: true });
    const { rows } = await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM users WHERE email = ${ADMIN.email}`);
    await insertRuleSet(
      t.ctx.db,
      rows[0]!.id,
      'Floor rules',
      [rule('Buy', 'green', [['best_price', 'gte', 9]]), rule('Cheap', 'yellow', [['best_price', 'gt', 0]])],
      {
        teamDefault: true,
      },
    );
    await insertRuleSet(t.ctx.db, scout.id, 'Mine', [rule('Keep', 'teal', [['amazon_sales_rank', 'lt', 100000]])]);
    jobId = await seedComparisonJob(t.ctx.db, rows[0]!.id, [...MARKETPLACE_IDS]);
    await answer('abe_books_price_lookups', FRESH, 60, { total_listing_price: 12.5, offer_count: 3 });
    // An older answer of the same ISBN: the latest one wins.
    await answer('abe_books_price_lookups', FRESH, 600, { total_listing_price: 99 });
    await answer('ebay_price_lookups', FRESH, 60, { price: 8, shipping_cost: 2.25, currency: 'USD', offer_count: 1 });
    await answer('amazon_price_lookups', FRESH, 60, { lowest_used_price: 7.1, sales_rank: 4200, buy_box_price: 11 });
    await answer('pallet_iq_price_lookups', FRESH, 60, { winner_amazon_log_data_mp_decision: 'BUY', winner_amazon_log_data_mm_val: 3.5 });
    await answer('biblio_price_lookups', FRESH, 60, { price: 20, currency: 'EUR' });
    await answer('abe_books_price_lookups', OLD, 60 * 24 * 40, { total_listing_price: 5 });
    await answer('abe_books_price_lookups', QUEUED, 0, {}, 'queued');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses an anonymous caller and a since that is no version', async () => {
    expect((await get(null)).statusCode).toBe(401);
    const bad = await get(scout.token, '?since=yesterday');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['query', 'since']);
  });

  it("holds the team's latest answers within the window as columns, with the rule sets and fees", async () => {
    const { pack: p } = await pack<FiguresPack>(scout.token);
    expect(p.kind).toBe('figures');
    expect(p.delta).toBe(false);
    expect(p.days).toBe(30);
    expect(p.isbns).toEqual([FRESH]);
    expect(p.numbers.abe_books_price).toEqual([1250]);
    expect(p.numbers.abe_books_offers).toEqual([3]);
    // eBay's price with its shipping, in cents; Biblio's in its own currency.
    expect(p.numbers.ebay_price).toEqual([1025]);
    expect(p.numbers.biblio_price).toEqual([2000]);
    const text = (name: string) => p.texts[name]!.codes.map((c) => (c === 0 ? null : p.texts[name]!.values[c - 1]));
    expect(text('biblio_currency')).toEqual(['EUR']);
    expect(text('alibris_status')).toEqual([null]);
    expect(text('pallet_iq_decision')).toEqual(['BUY']);
    expect(p.numbers.amazon_sales_rank).toEqual([4200]);
    expect(p.rule_sets.map((r) => [r.name, r.is_team_default])).toEqual([
      ['Floor rules', true],
      ['Mine', false],
    ]);
    expect(p.fees.abe_books).toMatchObject({ percent: 8, min_commission: 0.5 });
    // Without gzip in Accept-Encoding: the same pack as plain JSON.
    const plain = await get(scout.token, '', false);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().isbns).toEqual([FRESH]);
  });

  it('sends only the ISBNs answered since a version', async () => {
    const { pack: first } = await pack<FiguresPack>(scout.token);
    const none = await pack<FiguresPack>(scout.token, `?since=${first.version}`);
    expect(none.pack.delta).toBe(true);
    expect(none.pack.isbns).toEqual([]);
    expect(none.pack.version).toBe(first.version);
    await answer('alibris_price_lookups', LATER, 0, { price: 4.5 });
    const { pack: delta } = await pack<FiguresPack>(scout.token, `?since=${first.version}`);
    expect(delta.isbns).toEqual([LATER]);
    expect(delta.numbers.alibris_price).toEqual([450]);
    expect(Number(delta.version)).toBeGreaterThan(Number(first.version));
  });

  it("gives a 'decisions only' account outcomes and no figure, as a scan would", async () => {
    const { pack: p } = await pack<VerdictPack>(hidden.token);
    expect(p.kind).toBe('verdicts');
    expect(Object.keys(p).sort()).toEqual(
      ['built_at', 'codes', 'days', 'delta', 'format', 'isbns', 'kind', 'outcomes', 'rule_set', 'unknown', 'version'].sort(),
    );
    expect(p.rule_set?.name).toBe('Floor rules');
    const outcomeOf = (isbn: string) => p.outcomes[p.codes[p.isbns.indexOf(isbn)]!];
    // Best USD price: eBay's 10.25 (Amazon's 7.10 is lower: used price counts) → Amazon 7.10 → "Cheap".
    expect(outcomeOf(FRESH)).toEqual({ name: 'Cheap', color: 'yellow' });
    expect(p.outcomes[p.unknown!]).toEqual({ name: 'No rule', color: 'gray' });
    const session = await t.app.inject({ method: 'POST', url: '/api/v1/scan/sessions', headers: bearer(hidden.token), payload: {} });
    const scan = await t.app.inject({
      method: 'POST',
      url: `/api/v1/scan/sessions/${session.json().id}/scans`,
      headers: bearer(hidden.token),
      payload: { code: FRESH },
    });
    expect(scan.json().verdict.outcome).toEqual(outcomeOf(FRESH));
    // A delta of a pack judged with the same rules and fees; a changed team default sends it all again.
    const again = await pack<VerdictPack>(hidden.token, `?since=${p.version}`);
    expect(again.pack.delta).toBe(true);
    await t.ctx.db.execute(sql`UPDATE rule_sets SET is_team_default = false`);
    const changed = await pack<VerdictPack>(hidden.token, `?since=${p.version}`);
    expect(changed.pack.delta).toBe(false);
    expect(changed.pack.rule_set).toBeNull();
  });
});
