import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MARKETPLACES, dataFields } from '@app/domain/marketplaces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, testSettings, useFixtureClient } from '../../../test/helpers/http-contract.ts';
import type { MarketplaceSettings } from '../types.ts';
import { createEbayAdapter } from './client.ts';
import { ebayMapping } from './mapping.ts';
import { AppTokenSource } from './token.ts';

const fixture = readFixture(import.meta.url);
const signal = new AbortController().signal;

/** eBay's OAuth token endpoint as a test scripts it: records each exchange (with its body), answers as told. */
interface TokenServer {
  url: string;
  exchanges: { method: string; path: string; authorization: string | undefined; contentType: string | undefined; body: string }[];
  answer: { status: number; body: string; delayMs?: number };
  close(): Promise<void>;
}

async function startTokenServer(): Promise<TokenServer> {
  const state: TokenServer = {
    url: '',
    exchanges: [],
    answer: {
      status: 200,
      body: JSON.stringify({ access_token: 'app-token-1', expires_in: 7200, token_type: 'Application Access Token' }),
    },
    close: async () => {},
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    state.exchanges.push({
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: Buffer.concat(chunks).toString(),
    });
    const { status, body, delayMs } = state.answer;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

let tokens: TokenServer;
beforeAll(async () => {
  tokens = await startTokenServer();
});
afterAll(() => tokens.close());

/** A fresh keyset per test (tokens are cached per process and keyset), its token endpoint the token server. */
let keyset = 0;
const withKeyset =
  (secret = `secret-${++keyset}`) =>
  (settings: MarketplaceSettings) =>
    createEbayAdapter({
      ...settings,
      extra: { EBAY_CLIENT_SECRET: secret, EBAY_AUTH_URL: tokens.url, EBAY_MARKETPLACE_ID: 'EBAY_US', ...settings.extra },
    });

describe('eBay client: the search request', () => {
  const { requestSentFor } = useFixtureClient((s) => withKeyset('request-secret')(s), '9780441172719');

  it('asks item_summary/search by gtin, 50 cheapest fixed-price listings, with the app token and the marketplace id', async () => {
    const { path, query, headers } = await requestSentFor(fixture('no-match.json'));
    expect(path).toBe('/buy/browse/v1/item_summary/search');
    expect(query).toEqual({ gtin: '9780441172719', limit: '50', sort: 'price', filter: 'buyingOptions:{FIXED_PRICE}' });
    expect(headers.authorization).toBe('Bearer app-token-1');
    expect(headers['x-ebay-c-marketplace-id']).toBe('EBAY_US');
    // Where to deliver, as the contract recommends with sort=price (default: the US, no postal code).
    expect(headers['x-ebay-c-enduserctx']).toBe('contextualLocation=country%3DUS');
  });

  it('sends the configured delivery country and postal code URL-encoded, as eBay documents the header', async () => {
    const { headers } = await requestSentFor(fixture('no-match.json'), {
      extra: { EBAY_DELIVERY_COUNTRY: 'US', EBAY_DELIVERY_POSTAL_CODE: '19406' },
    });
    expect(headers['x-ebay-c-enduserctx']).toBe('contextualLocation=country%3DUS%2Czip%3D19406');
  });

  it('gets the token by the client-credentials grant: Basic id:secret, form body with the public-data scope', async () => {
    const exchange = tokens.exchanges.find((e) => e.authorization === `Basic ${Buffer.from('test-key:request-secret').toString('base64')}`);
    expect(exchange).toMatchObject({ method: 'POST', path: '/identity/v1/oauth2/token', contentType: 'application/x-www-form-urlencoded' });
    expect(Object.fromEntries(new URLSearchParams(exchange?.body))).toEqual({
      grant_type: 'client_credentials',
      scope: 'https://api.ebay.com/oauth/api_scope',
    });
  });
});

describe('eBay client: the application token', () => {
  const client = useFixtureClient((s) => withKeyset('cache-secret')(s), '9780441172719');
  const exchangesFor = (secret: string) =>
    tokens.exchanges.filter((e) => e.authorization === `Basic ${Buffer.from(`test-key:${secret}`).toString('base64')}`).length;

  it('is exchanged once and reused by later lookups', async () => {
    await client.lookupAnswering(fixture('no-match.json'));
    await client.lookupAnswering(fixture('no-match.json'));
    expect(exchangesFor('cache-secret')).toBe(1);
  });

  it('concurrent lookups wait for the one exchange in flight', async () => {
    tokens.answer = { ...tokens.answer, delayMs: 100 };
    try {
      client.server.reply({ status: 200, headers: { 'content-type': 'application/json' }, body: fixture('no-match.json') });
      const create = withKeyset('concurrent-secret');
      const outcomes = await Promise.all(
        [1, 2, 3, 4].map(() => create(testSettings(client.server.url)).lookup('9780441172719', { signal })),
      );
      expect(outcomes.map((o) => o.kind)).toEqual(['no_offers', 'no_offers', 'no_offers', 'no_offers']);
      expect(exchangesFor('concurrent-secret')).toBe(1);
    } finally {
      tokens.answer = { ...tokens.answer, delayMs: 0 };
    }
  });

  it('is renewed shortly before it expires, not after', async () => {
    let now = 1_000_000;
    const source = new AppTokenSource({ authUrl: tokens.url, clientId: 'clock', clientSecret: 'clock-secret' }, 2000, () => now);
    await source.get(signal);
    now += 7200_000 - 6 * 60_000; // six minutes left: still good
    await source.get(signal);
    expect(source.exchanges).toBe(1);
    now += 2 * 60_000; // four minutes left: renewed
    await source.get(signal);
    expect(source.exchanges).toBe(2);
  });

  it('a 401 from the search drops the token and retries; the next lookup exchanges anew', async () => {
    const create = withKeyset('revoked-secret');
    client.server.reply({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: '{"errors":[{"errorId":1001,"domain":"OAuth","category":"REQUEST","message":"Invalid access token"}]}',
    });
    const outcome = await create(testSettings(client.server.url)).lookup('9780441172719', { signal });
    expect(outcome).toEqual({ kind: 'retry', reason: 'eBay refused the access token (401: 1001 Invalid access token)' });
    client.server.reply({ status: 200, headers: { 'content-type': 'application/json' }, body: fixture('no-match.json') });
    await create(testSettings(client.server.url)).lookup('9780441172719', { signal });
    expect(exchangesFor('revoked-secret')).toBe(2);
  });
});

describe('eBay client: missing or wrong credentials', () => {
  const client = useFixtureClient((s) => withKeyset()(s), '9780441172719');

  it('wrong keys: the lookup fails with eBay OAuth reason, and later lookups fail without asking again', async () => {
    const before = tokens.exchanges.length;
    tokens.answer = { status: 401, body: fixture('token-invalid-client.json') };
    try {
      const create = withKeyset('wrong-secret');
      const first = await create(testSettings(client.server.url)).lookup('9780441172719', { signal });
      const second = await create(testSettings(client.server.url)).lookup('9780441172719', { signal });
      const message =
        'eBay refused the application keys (EBAY_CLIENT_ID / EBAY_CLIENT_SECRET), HTTP 401: invalid_client: client authentication failed';
      expect(first).toEqual({ kind: 'failed', message });
      expect(second).toEqual({ kind: 'failed', message });
      expect(tokens.exchanges.length - before).toBe(1);
    } finally {
      tokens.answer = { status: 200, body: JSON.stringify({ access_token: 'app-token-1', expires_in: 7200 }) };
    }
  });

  it('a client id without a secret fails every lookup saying so, sending nothing', async () => {
    const before = { tokens: tokens.exchanges.length, searches: client.server.requests.length };
    const adapter = createEbayAdapter({ ...testSettings(client.server.url), extra: { EBAY_AUTH_URL: tokens.url } });
    expect(await adapter.lookup('9780441172719', { signal })).toEqual({
      kind: 'failed',
      message: 'EBAY_CLIENT_SECRET is not set: eBay needs the whole application keyset',
    });
    expect(tokens.exchanges.length).toBe(before.tokens);
    expect(client.server.requests.length).toBe(before.searches);
  });

  it('a token answer larger than the cap is not read: retry', async () => {
    tokens.answer = { status: 200, body: ' '.repeat(16 * 1024 * 1024 + 1) };
    try {
      const outcome = await withKeyset()(testSettings(client.server.url)).lookup('9780441172719', { signal });
      expect(outcome).toEqual({
        kind: 'retry',
        reason: 'eBay token service: answer larger than 16 MB (MARKETPLACE_MAX_RESPONSE_BYTES): not read',
      });
    } finally {
      tokens.answer = { status: 200, body: JSON.stringify({ access_token: 'app-token-1', expires_in: 7200 }) };
    }
  });

  it('the token service down is transient: retry', async () => {
    tokens.answer = { status: 503, body: '' };
    try {
      const outcome = await withKeyset()(testSettings(client.server.url)).lookup('9780441172719', { signal });
      expect(outcome).toEqual({ kind: 'retry', reason: 'eBay token service unavailable (503)' });
    } finally {
      tokens.answer = { status: 200, body: JSON.stringify({ access_token: 'app-token-1', expires_in: 7200 }) };
    }
  });
});

describe('eBay client: reading answers', () => {
  const { lookupAnswering } = useFixtureClient((s) => withKeyset('answers-secret')(s), '9780441172719');

  it('chooses the cheapest price + shipping (not the cheapest price) and fills every column from it', async () => {
    const outcome = await lookupAnswering(fixture('search-books.json'));
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    expect(Object.keys(outcome.record).sort()).toEqual(
      dataFields(MARKETPLACES.ebay)
        .map((f) => f.name)
        .sort(),
    );
    expect(outcome.record).toEqual({
      title: 'DUNE Frank Herbert Ace mass market very good',
      price: 6.75,
      currency: 'USD',
      shipping_cost: 0,
      shipping_type: 'FIXED',
      condition: 'Very Good',
      condition_id: '4000',
      seller_username: 'shelfwise_books',
      seller_feedback_percentage: 100,
      seller_feedback_score: 812,
      listing_url: 'https://www.ebay.com/itm/110000000002',
      buying_options: 'FIXED_PRICE, BEST_OFFER',
      item_id: 'v1|110000000002|0',
    });
    expect(outcome.offers).toHaveLength(3);
  });

  it('an answer shaped like the captured search (refinements, marketing price, converted price) is read; its cheapest total wins', async () => {
    const outcome = await lookupAnswering(fixture('search-capture-shape.json'));
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({
      price: 12,
      shipping_cost: 3.5,
      seller_username: 'riverbend_used',
      seller_feedback_percentage: 98.7,
      seller_feedback_score: 4410,
      listing_url: 'https://www.ebay.com/itm/220000000010?hash=item33a0:g:aaaa',
    });
  });

  it('an item shaped like the captured getItem maps to the same columns', () => {
    expect(ebayMapping.apply(JSON.parse(fixture('item-capture-shape.json')))).toEqual({
      title: 'The Hobbit J.R.R. Tolkien Houghton Mifflin hardcover',
      price: 18.4,
      currency: 'USD',
      shipping_cost: 4.35,
      shipping_type: 'FIXED',
      condition: 'Good',
      condition_id: '5000',
      seller_username: 'mile_high_books',
      seller_feedback_percentage: 97.5,
      seller_feedback_score: 640,
      listing_url: 'https://www.ebay.com/itm/330000000020',
      buying_options: 'FIXED_PRICE',
      item_id: 'v1|330000000020|0',
    });
  });

  it('missing optional fields stay empty: no feedback percentage, calculated shipping without a cost', () => {
    const third = (JSON.parse(fixture('search-books.json')) as { itemSummaries: unknown[] }).itemSummaries[2];
    expect(ebayMapping.apply(third)).toMatchObject({
      seller_feedback_percentage: null,
      seller_feedback_score: 3,
      shipping_cost: null,
      shipping_type: 'CALCULATED',
    });
  });

  it('unknown shipping is not free: a CALCULATED listing without a cost stays an offer but is left out of the best delivered price', async () => {
    const outcome = await lookupAnswering(fixture('search-calculated-shipping.json'));
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    // 3.00 + unknown shipping is not cheaper than 4.50 + 0.99.
    expect(outcome.record).toMatchObject({ price: 4.5, shipping_cost: 0.99, shipping_type: 'FIXED', item_id: 'v1|120000000002|0' });
    expect(outcome.offers).toHaveLength(3);
  });

  it('when no listing has a known shipping cost, the cheapest price is kept with its shipping marked unknown (empty, CALCULATED)', async () => {
    const outcome = await lookupAnswering(fixture('search-all-calculated.json'));
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({
      price: 5.1,
      shipping_cost: null,
      shipping_type: 'CALCULATED',
      seller_username: 'paper_trail_co',
    });
  });

  it('an auction arriving despite the fixed-price filter is skipped: neither an offer nor the choice', async () => {
    const outcome = await lookupAnswering(fixture('search-auction.json'));
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    expect(outcome.record).toMatchObject({ price: 4.5, shipping_cost: 0.99, item_id: 'v1|120000000007|0' });
    // The auction with Buy It Now has a price to buy at now: it stays.
    expect(outcome.offers.map((o) => (o as { itemId: string }).itemId)).toEqual(['v1|120000000007|0', 'v1|120000000008|0']);
    const doc = JSON.parse(fixture('search-auction.json')) as { itemSummaries: unknown[] };
    const auctionOnly = JSON.stringify({ ...doc, total: 1, itemSummaries: doc.itemSummaries.slice(0, 1) });
    expect(await lookupAnswering(auctionOnly)).toEqual({ kind: 'no_offers', offers: [] });
  });

  it('never compares currencies: the cheaper GBP listing loses to the USD one', async () => {
    const outcome = await lookupAnswering(fixture('foreign-currency.json'));
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({ price: 7.1, currency: 'USD', shipping_cost: 3 });
  });

  it('no match: total 0 without itemSummaries means no offers', async () => {
    expect(await lookupAnswering(fixture('no-match.json'))).toEqual({ kind: 'no_offers', offers: [] });
  });

  it('a refused gtin (a 200 with warning 12022 and no items) fails with eBay message', async () => {
    expect(await lookupAnswering(fixture('invalid-gtin-warning.json'))).toEqual({
      kind: 'failed',
      message: "eBay: 12022 The 'gtin' value 97804 is invalid. For information, see the API call reference documentation.",
    });
  });

  it("a 400 in eBay's error envelope fails with its errorId and message", async () => {
    expect(await lookupAnswering(fixture('error-400-limit.json'), { status: 400 })).toEqual({
      kind: 'failed',
      message: "eBay: 12006 The 'limit' value should be between 1 and 200 (inclusive).",
    });
  });

  it('a 500 with errorId 12000 is transient', async () => {
    expect(await lookupAnswering(fixture('error-500.json'), { status: 500 })).toEqual({
      kind: 'retry',
      reason: 'Marketplace unavailable (500)',
    });
  });

  it('a 429 errorId 2001 without Retry-After is the daily quota: retried in an hour', async () => {
    const body = '{"errors":[{"errorId":2001,"domain":"ACCESS","category":"REQUEST","message":"Too many requests."}]}';
    expect(await lookupAnswering(body, { status: 429 })).toEqual({
      kind: 'retry',
      reason: 'eBay daily call limit reached (429)',
      retryAfterMs: 3_600_000,
    });
  });

  it('a JSON object that is no search answer is malformed (that lookup retries, nothing else)', async () => {
    expect(await lookupAnswering('{"hello":"world"}')).toEqual({
      kind: 'retry',
      reason: 'Malformed response: neither itemSummaries nor total',
    });
    expect(await lookupAnswering('{"total":1,"itemSummaries":{"0":{}}}')).toEqual({
      kind: 'retry',
      reason: 'Malformed response: itemSummaries is not an array',
    });
  });
});

describe('eBay mapping', () => {
  it('says where every column comes from', () => {
    expect(ebayMapping.entries.map((e) => e.field).sort()).toEqual(
      dataFields(MARKETPLACES.ebay)
        .map((f) => f.name)
        .sort(),
    );
  });
});

describeHttpContract('eBay', (s) => withKeyset('contract-secret')(s), {
  offers: fixture('search-books.json'),
  malformed: fixture('malformed.json'),
  contentType: 'application/json',
  // A refused token is dropped and the lookup asked again with a new one; wrong keys fail at the token exchange.
  on401: () => ({ kind: 'retry', reason: 'eBay refused the access token (401)' }),
});
