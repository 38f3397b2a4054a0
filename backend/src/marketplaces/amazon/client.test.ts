// Amazon's client against a scripted server answering per path: LWA token, catalog search, offers batch.
// Fixtures are our own, built from the Selling Partner API schemas. fixtures/model-shapes/ holds answers
// written by us in the shape of each model's full response (every optional section filled, named
// <operation>__<status>__<what>.json): each is parsed too, and the error bodies refused as their schema says.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFixture, testSettings } from '../../../test/helpers/http-contract.ts';
import type { MarketplaceSettings, Pace } from '../types.ts';
import { CATALOG_PATH, MAX_CATALOG_PAGES, NOT_IN_CATALOG, OFFERS_BATCH_PATH, createAmazonAdapter } from './client.ts';
import { LwaTokens } from './lwa.ts';
import { bookOutcome, checkOffersPayload, errorsText, readCatalog } from './wire.ts';

const fixture = readFixture(import.meta.url);
const PRINT = '9780306406157'; // in the catalog twice (Kindle and print), with used offers
const PLATE = '9780486229874'; // in the catalog, no buyable offers
const UNKNOWN = '9780131103627'; // not in the catalog

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Route = { status?: number; body: string; headers?: Record<string, string> };

let server: http.Server;
let base = '';
const seen: Seen[] = [];
const routes = new Map<string, Route>();
const paced: string[] = [];
const pace: Pace = async (op) => {
  paced.push(op);
};
const signal = new AbortController().signal;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      // A later page of a search is its own route: `<path>?pageToken=<token>`.
      const page = url.searchParams.get('pageToken');
      const r = (page === null ? undefined : routes.get(`${url.pathname}?pageToken=${page}`)) ??
        routes.get(url.pathname) ?? { status: 404, body: '{"errors":[{"code":"NotFound","message":"no route"}]}' };
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
      res.end(r.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  paced.length = 0;
  routes.clear();
  routes.set('/auth/o2/token', { body: fixture('lwa-token.json') });
  routes.set(CATALOG_PATH, { body: fixture('catalog-books.json') });
  routes.set(OFFERS_BATCH_PATH, { body: fixture('offers-batch.json') });
});

const adapter = (over: Partial<MarketplaceSettings> = {}) =>
  createAmazonAdapter(
    testSettings(base, {
      credential: 'Atzr|refresh',
      extra: {
        AMAZON_CLIENT_ID: 'client-id',
        AMAZON_CLIENT_SECRET: 'client-secret',
        AMAZON_LWA_URL: base,
        AMAZON_MARKETPLACE_ID: 'ATVPDKIKX0DER',
      },
      operationRates: { catalog: 2, offers: 0.1 },
      ...over,
    }),
  );
const batch = (isbns: string[], over: Partial<MarketplaceSettings> = {}) => adapter(over).lookupBatch!(isbns, { signal, pace });

describe('Amazon client: requests', () => {
  it('exchanges the refresh token once, then searches the catalog by ISBN-13 (as EAN) and asks Used offers for the ASINs found', async () => {
    await batch([PRINT, PLATE, UNKNOWN]);
    const [token, catalog, offers] = seen;
    expect(token?.method).toBe('POST');
    expect(Object.fromEntries(new URLSearchParams(token?.body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'Atzr|refresh',
      client_id: 'client-id',
      client_secret: 'client-secret',
    });
    expect(catalog?.path).toBe(CATALOG_PATH);
    expect(Object.fromEntries(catalog?.query ?? [])).toMatchObject({
      identifiers: `${PRINT},${PLATE},${UNKNOWN}`,
      // An ISBN-13 is an EAN-13: the form public evidence shows answering for 13-digit identifiers.
      identifiersType: 'EAN',
      marketplaceIds: 'ATVPDKIKX0DER',
      includedData: 'summaries,identifiers,salesRanks',
      pageSize: '20',
    });
    expect(catalog?.query.has('pageToken')).toBe(false);
    expect(catalog?.headers['x-amz-access-token']).toBe('Atza|fixture-access-token');
    expect(catalog?.headers.authorization).toBeUndefined();
    expect(offers?.method).toBe('POST');
    expect(offers?.headers['x-amz-access-token']).toBe('Atza|fixture-access-token');
    // The print book's ASIN (not the Kindle edition's) and the plate book's; nothing for the unknown ISBN.
    expect(JSON.parse(offers?.body ?? '')).toEqual({
      requests: ['0306406152', '0486229874'].map((asin) => ({
        uri: `/products/pricing/v0/items/${asin}/offers`,
        method: 'GET',
        MarketplaceId: 'ATVPDKIKX0DER',
        ItemCondition: 'Used',
        CustomerType: 'Consumer',
      })),
    });
    expect(paced).toEqual(['catalog', 'offers']);
  });

  it('keeps the access token until shortly before it expires, and shares one exchange between concurrent batches', async () => {
    const a = adapter();
    await Promise.all([a.lookupBatch!([PRINT], { signal, pace }), a.lookupBatch!([PLATE], { signal, pace })]);
    await a.lookupBatch!([PRINT], { signal, pace });
    expect(seen.filter((s) => s.path === '/auth/o2/token')).toHaveLength(1);

    let now = 0;
    const tokens = new LwaTokens({ url: base, clientId: 'c', clientSecret: 's', refreshToken: 'r', timeoutMs: 2000 }, () => now);
    await tokens.get();
    now = 3_500_000; // expires_in 3600 s: renewed from 3540 s on
    await tokens.get();
    expect(seen.filter((s) => s.path === '/auth/o2/token')).toHaveLength(2);
    now = 3_600_000;
    await tokens.get();
    expect(seen.filter((s) => s.path === '/auth/o2/token')).toHaveLength(3);
  });

  it('follows pagination.nextToken: items on the second page are found, never "not in the catalog"', async () => {
    // One ISBN matching two items (Kindle and print) pushes the rest of the batch onto page 2.
    routes.set(CATALOG_PATH, { body: fixture('catalog-page-1.json') });
    routes.set(`${CATALOG_PATH}?pageToken=cGFnZTI-test-next`, { body: fixture('catalog-page-2.json') });
    const [print, plate, unknown] = await batch([PRINT, PLATE, UNKNOWN]);
    const searches = seen.filter((s) => s.path === CATALOG_PATH);
    expect(searches).toHaveLength(2);
    // The second page is the same search with the token as pageToken.
    expect(Object.fromEntries(searches[1]?.query ?? [])).toEqual({
      ...Object.fromEntries(searches[0]?.query ?? []),
      pageToken: 'cGFnZTI-test-next',
    });
    expect(paced).toEqual(['catalog', 'catalog', 'offers']);
    // The print edition (page 2) wins over the Kindle one (page 1); the plate book is found on page 2.
    expect(print).toMatchObject({ kind: 'completed', record: { asin: '0306406152', sales_rank: 48213 } });
    expect(plate).toMatchObject({ kind: 'no_offers', record: { asin: '0486229874' } });
    expect(unknown).toEqual({ kind: 'no_offers', offers: [], reason: NOT_IN_CATALOG });
  });

  it('a search that keeps paging past the bound retries the batch rather than calling its ISBNs unknown', async () => {
    routes.set(CATALOG_PATH, { body: fixture('catalog-page-1.json') });
    const outcomes = await batch([PRINT, PLATE]);
    expect(seen.filter((s) => s.path === CATALOG_PATH)).toHaveLength(MAX_CATALOG_PAGES);
    expect(outcomes).toEqual([0, 1].map(() => ({ kind: 'retry', reason: `Amazon's catalog answer runs past ${MAX_CATALOG_PAGES} pages` })));
  });

  it('a failing second page fails the batch as the first would', async () => {
    routes.set(CATALOG_PATH, { body: fixture('catalog-page-1.json') });
    routes.set(`${CATALOG_PATH}?pageToken=cGFnZTI-test-next`, { status: 429, body: fixture('quota-exceeded.json') });
    expect((await batch([PRINT, PLATE])).map((o) => o.kind)).toEqual(['retry', 'retry']);
  });

  it('with no ASIN found it sends no offers request', async () => {
    expect(await batch([UNKNOWN])).toEqual([{ kind: 'no_offers', offers: [], reason: NOT_IN_CATALOG }]);
    expect(seen.map((s) => s.path)).toEqual(['/auth/o2/token', CATALOG_PATH]);
  });
});

describe('Amazon client: answers', () => {
  it('one outcome per ISBN: offers with sales rank and summary, catalog facts without offers, unknown ISBN with its reason', async () => {
    const [print, plate, unknown] = await batch([PRINT, PLATE, UNKNOWN]);
    expect(print).toMatchObject({
      kind: 'completed',
      record: {
        asin: '0306406152',
        title: 'Thermodynamics',
        author: 'Ada Writer',
        sales_rank: 48213,
        sales_rank_category: 'Books',
        lowest_used_price: 7.98,
        lowest_new_price: 24.99,
        buy_box_price: 9.5,
        used_offer_count: 3,
        new_offer_count: null, // the New entry leaves its optional OfferCount out
        total_offer_count: 5,
        product_url: 'https://www.amazon.com/dp/0306406152',
        condition: 'Used',
        // The cheapest landed used offer (4 + 3.98), not the Buy Box winner.
        sub_condition: 'Acceptable',
        listing_price: 4,
        shipping: 3.98,
        seller_id: 'A1MERCHANT02',
        seller_feedback_percent: 91,
        seller_feedback_count: 87,
        fulfilled_by_amazon: 'false',
        prime: null,
        buy_box_winner: null,
      },
    });
    expect(print?.kind === 'completed' && print.offers).toHaveLength(3);
    expect(print?.kind === 'completed' && print.offers[1]).toMatchObject({
      listing_price: 9.5,
      shipping_price: 0,
      condition: 'Used',
      sub_condition: 'Very Good',
      seller: 'A2FBA0000001',
      fulfilled_by_amazon: true,
      prime: true,
      buy_box_winner: true,
    });
    expect(plate).toMatchObject({
      kind: 'no_offers',
      reason: 'Amazon: NoBuyableOffers',
      record: { asin: '0486229874', title: 'Art Forms in Nature', sales_rank: null, lowest_used_price: null },
    });
    expect(unknown).toEqual({ kind: 'no_offers', offers: [], reason: NOT_IN_CATALOG });
  });

  it('an item refused inside the 200 fails that lookup only; a malformed item is retried alone', async () => {
    routes.set(OFFERS_BATCH_PATH, { body: fixture('offers-item-errors.json') });
    const [print, plate, unknown] = await batch([PRINT, PLATE, UNKNOWN]);
    expect(print).toEqual({ kind: 'failed', message: 'Amazon answered HTTP 400: InvalidInput: Invalid Input' });
    expect(plate).toEqual({
      kind: 'retry',
      reason: 'Malformed response: offer 0 lacks ListingPrice, Shipping, SubCondition or IsFulfilledByAmazon',
    });
    expect(unknown?.kind).toBe('no_offers');
  });

  it('an item not found keeps its catalog facts as no offers; an item over quota retries one offers interval later', async () => {
    routes.set(OFFERS_BATCH_PATH, { body: fixture('offers-item-not-found-and-quota.json') });
    const [print, plate] = await batch([PRINT, PLATE]);
    expect(print).toMatchObject({ kind: 'no_offers', record: { sales_rank: 48213 } });
    expect(print?.kind === 'no_offers' && print.reason).toMatch(/no offers for ASIN 0306406152/);
    expect(plate).toEqual({
      kind: 'retry',
      reason: 'Rate limited (QuotaExceeded: You exceeded your quota for the requested resource.)',
      retryAfterMs: 10_000,
      rateLimited: true,
    });
  });

  it.each([
    ['catalog', CATALOG_PATH, 500],
    ['offers', OFFERS_BATCH_PATH, 10_000],
  ])('QuotaExceeded (429) on the %s request retries the batch at that operation’s rate', async (_op, path, retryAfterMs) => {
    routes.set(path, { status: 429, body: fixture('quota-exceeded.json') });
    const outcomes = await batch([PRINT, PLATE]);
    expect(outcomes).toEqual(
      [0, 1].map(() => ({
        kind: 'retry',
        reason: 'Rate limited (QuotaExceeded: You exceeded your quota for the requested resource.)',
        retryAfterMs,
        rateLimited: true,
      })),
    );
  });

  it('the error bodies are refusals with Amazon’s message; 5xx and a truncated catalog retry', async () => {
    routes.set(CATALOG_PATH, { status: 400, body: fixture('catalog-400.json') });
    expect(await batch([PRINT])).toEqual([
      { kind: 'failed', message: 'Amazon answered HTTP 400: 400: Request has missing or invalid parameters and cannot be parsed.' },
    ]);
    routes.set(CATALOG_PATH, { body: fixture('catalog-books.json') });
    routes.set(OFFERS_BATCH_PATH, { status: 400, body: fixture('offers-400.json') });
    expect(await batch([PRINT])).toEqual([{ kind: 'failed', message: 'Amazon answered HTTP 400: InvalidInput: Invalid Input' }]);
    routes.set(OFFERS_BATCH_PATH, { status: 503, body: 'Service Unavailable' });
    expect((await batch([PRINT]))[0]).toEqual({ kind: 'retry', reason: 'Amazon unavailable (503)' });
    routes.set(CATALOG_PATH, { body: fixture('catalog-books.json').slice(0, 200) });
    expect((await batch([PRINT, PLATE])).map((o) => o.kind)).toEqual(['retry', 'retry']);
  });

  it('wrong credentials fail every lookup with a clear reason (never a retry loop); a refused access token too', async () => {
    routes.set('/auth/o2/token', { status: 400, body: fixture('lwa-invalid-grant.json') });
    expect(await batch([PRINT, PLATE])).toEqual(
      [0, 1].map(() => ({
        kind: 'failed',
        message: 'Login with Amazon refused the credentials (invalid_grant: The request has an invalid grant parameter : refresh_token)',
      })),
    );
    expect(await batch([PRINT], { extra: { AMAZON_LWA_URL: base } })).toEqual([
      { kind: 'failed', message: 'AMAZON_CLIENT_ID and AMAZON_CLIENT_SECRET must be set with AMAZON_REFRESH_TOKEN' },
    ]);
    routes.set('/auth/o2/token', { body: fixture('lwa-token.json') });
    routes.set(CATALOG_PATH, { status: 403, body: fixture('unauthorized-403.json') });
    expect(await batch([PRINT])).toEqual([
      { kind: 'failed', message: 'Amazon refused the access token (403: Unauthorized: Access to requested resource is denied.)' },
    ]);
  });
});

// Full model-shaped answers (ours, in the repository): a missing folder or file fails this suite, never skips it.
const SHAPES = new URL('./fixtures/model-shapes/', import.meta.url);
const shapes = readdirSync(SHAPES).filter((f) => f.endsWith('.json'));
const shape = (name: string) => JSON.parse(readFileSync(new URL(name, SHAPES), 'utf8')) as Record<string, unknown>;
const named = (pattern: RegExp) => shapes.filter((f) => pattern.test(f));
const SHAPE_KINDS = [
  /^searchCatalogItems__200/,
  /^getItemOffersBatch__200/,
  /^getItemOffers__200/,
  /^searchCatalogItems__400/,
  /^getItemOffersBatch__400/,
  /^getItemOffers__400/,
];

describe('Amazon answers in the models’ full shapes', () => {
  it.each(SHAPE_KINDS.map((k) => [k.source]))('has an answer for %s', (source) => {
    expect(named(new RegExp(source))).not.toEqual([]);
  });

  it.each(named(/^searchCatalogItems__200/))('%s reads as a catalog answer', (name) => {
    const items = readCatalog(JSON.stringify(shape(name)), [PRINT]);
    // Household goods found by keywords: readable, and no ISBN of ours among them.
    expect(items.get(PRINT)).toBeUndefined();
  });

  it.each(named(/^getItemOffersBatch__200/))('%s: every response is a valid GetOffersResult', (name) => {
    const { responses } = shape(name) as { responses: { body: { payload: unknown } }[] };
    expect(responses.length).toBeGreaterThan(0);
    for (const r of responses) {
      const payload = checkOffersPayload(r.body.payload);
      const outcome = bookOutcome({ asin: payload.ASIN ?? 'X' }, payload);
      expect(outcome.kind).toBe(payload.Offers.length ? 'completed' : 'no_offers');
    }
  });

  it.each(named(/^getItemOffers__200/))('%s: its payload is a valid GetOffersResult', (name) => {
    const payload = checkOffersPayload((shape(name) as { payload: unknown }).payload);
    expect(bookOutcome({ asin: 'X' }, payload).kind).toBe('completed');
  });

  it.each(named(/^(searchCatalogItems|getItemOffersBatch|getItemOffers)__400/))(
    '%s is refused with its ErrorList message',
    async (name) => {
      const body = JSON.stringify(shape(name));
      expect(errorsText(JSON.parse(body))).not.toBe('');
      routes.set(name.startsWith('search') ? CATALOG_PATH : OFFERS_BATCH_PATH, { status: 400, body });
      const [outcome] = await batch([PRINT]);
      expect(outcome).toEqual({ kind: 'failed', message: `Amazon answered HTTP 400: ${errorsText(JSON.parse(body))}` });
    },
  );
});
