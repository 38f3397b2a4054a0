// The adapters against the sandbox: both sides of the wire formats agree, and faults classify as retries.
import { MARKETPLACE_IDS, type MarketplaceId } from '@app/domain/marketplaces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { biblioMapping } from '../marketplaces/biblio/mapping.ts';
import { settingsFromEnv } from '../marketplaces/env.ts';
import { createAdapters } from '../marketplaces/registry.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../marketplaces/types.ts';
import { bookFor, hasOffers, listingsFor } from './catalog.ts';
import { sampleIsbns } from './isbns.ts';
import type { SandboxOptions } from './options.ts';
import type { Sandbox, SandboxStats } from './server.ts';
import { startMarketplaceSandbox } from '../marketplaces/sandbox.ts';

const signal = new AbortController().signal;

function adaptersFor(sandbox: Sandbox, over: Partial<MarketplaceSettings> = {}): Record<MarketplaceId, MarketplaceAdapter> {
  const settings = settingsFromEnv({}, { sandboxUrl: sandbox.url });
  for (const id of MARKETPLACE_IDS) settings[id] = { ...settings[id], ...over };
  return createAdapters(settings);
}

async function withSandbox<T>(opts: Partial<SandboxOptions>, fn: (s: Sandbox) => Promise<T>): Promise<T> {
  const sandbox = await startMarketplaceSandbox({ latencyMs: 0, ...opts });
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

describe('sandbox', () => {
  let sandbox: Sandbox;
  let adapters: Record<MarketplaceId, MarketplaceAdapter>;
  const isbns = sampleIsbns(200, 131_457_000);
  const opts = { noOfferShare: 0.25, maxOffers: 8, seed: 1 };
  const withOffers = isbns.find((i) => hasOffers(i, opts))!;
  const without = isbns.find((i) => !hasOffers(i, opts))!;
  beforeAll(async () => {
    sandbox = await startMarketplaceSandbox({ latencyMs: 0, ...opts });
    adapters = adaptersFor(sandbox);
  });
  afterAll(() => sandbox.close());

  it('offers the same deterministic listings to every adapter, the cheapest becoming the record', async () => {
    const book = bookFor(withOffers, opts.seed);
    for (const id of MARKETPLACE_IDS) {
      const first = await adapters[id].lookup(withOffers, { signal });
      if (id === 'amazon') {
        // Amazon is asked for used offers only (its client test and the batch worker test cover the rest).
        expect(first.kind === 'completed' || first.kind === 'no_offers').toBe(true);
        expect(first.kind !== 'retry' && first.kind !== 'failed' && first.record?.title).toBe(book.title);
        continue;
      }
      expect(first.kind, id).toBe('completed');
      expect(await adapters[id].lookup(withOffers, { signal }), id).toEqual(first);
      const listings = listingsFor(id, book, opts);
      if (first.kind !== 'completed') continue;
      if (id === 'pallet_iq') {
        expect(first.offers).toHaveLength(1);
        expect(typeof first.record.winner_amazon_log_data_mm_val).toBe('number');
        continue;
      }
      expect(first.offers).toHaveLength(listings.length);
      if (id === 'ebay') {
        // Chosen on price + shipping: the delivery location sent lets eBay price CALCULATED shipping too.
        expect(typeof first.record.shipping_cost, id).toBe('number');
        const total = Number(first.record.price) + Number(first.record.shipping_cost);
        expect(total, id).toBeCloseTo(Math.min(...listings.map((l) => l.price + l.shipping)), 2);
        expect(first.record.title, id).toBeTruthy();
        continue;
      }
      const cheapestPrice = Math.min(...listings.map((l) => l.price + (id === 'abe_books' ? l.shipping : 0)));
      const recordPrice = id === 'abe_books' ? first.record.total_listing_price : first.record.price;
      expect(recordPrice, id).toBeCloseTo(cheapestPrice, 2);
      expect(first.record.title ?? first.record.author, id).toBeTruthy();
    }
  });

  it("Amazon's catalog answers in pages of pageSize, each pointing to the next with nextToken until the last", async () => {
    const asked = isbns.slice(0, 5);
    const query = new URLSearchParams({
      identifiers: asked.join(','),
      identifiersType: 'EAN',
      marketplaceIds: 'ATVPDKIKX0DER',
      pageSize: '2',
    });
    const headers = { 'x-amz-access-token': 'Atza|sandbox' };
    const asins: string[] = [];
    let pages = 0;
    for (let token: string | undefined = undefined; pages === 0 || token; pages++) {
      if (token) query.set('pageToken', token);
      const doc = (await (await fetch(`${sandbox.url}/amazon/catalog/2022-04-01/items?${query}`, { headers })).json()) as {
        numberOfResults: number;
        pagination?: { nextToken?: string };
        items: { asin: string }[];
      };
      expect(doc.numberOfResults).toBe(5);
      expect(doc.items.length).toBeLessThanOrEqual(2);
      asins.push(...doc.items.map((i) => i.asin));
      token = doc.pagination?.nextToken;
    }
    expect(pages).toBe(3);
    expect(new Set(asins).size).toBe(5);
  });

  it('eBay prices CALCULATED shipping only for a request that says where to deliver (X-EBAY-C-ENDUSERCTX)', async () => {
    const token = (await (
      await fetch(`${sandbox.url}/ebay/identity/v1/oauth2/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('id:secret').toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'https://api.ebay.com/oauth/api_scope' }),
      })
    ).json()) as { access_token: string };
    const costless = async (headers: Record<string, string>) => {
      let count = 0;
      for (const isbn of isbns.filter((i) => hasOffers(i, opts)).slice(0, 40)) {
        const res = await fetch(`${sandbox.url}/ebay/buy/browse/v1/item_summary/search?gtin=${isbn}`, {
          headers: { authorization: `Bearer ${token.access_token}`, ...headers },
        });
        const doc = (await res.json()) as { itemSummaries?: { shippingOptions: { shippingCost?: unknown }[] }[] };
        count += (doc.itemSummaries ?? []).filter((s) => s.shippingOptions.some((o) => o.shippingCost === undefined)).length;
      }
      return count;
    };
    expect(await costless({})).toBeGreaterThan(0);
    expect(await costless({ 'x-ebay-c-enduserctx': 'contextualLocation=country%3DUS%2Czip%3D19406' })).toBe(0);
  });

  it('an ISBN without offers has none on any marketplace', async () => {
    for (const id of MARKETPLACE_IDS) {
      // Amazon keeps the book's catalog facts beside "no offers".
      expect(await adapters[id].lookup(without, { signal }), id).toMatchObject({ kind: 'no_offers', offers: [] });
    }
  });

  it('the no-offer share holds over many ISBNs', () => {
    const none = sampleIsbns(2000).filter((i) => !hasOffers(i, opts)).length;
    expect(none / 2000).toBeGreaterThan(0.2);
    expect(none / 2000).toBeLessThan(0.3);
  });

  it('Biblio results carry every field our mapping reads', async () => {
    const res = await fetch(`${sandbox.url}/biblio/api/product_search?isbn=${withOffers}`);
    const [result] = ((await res.json()) as { data: { results: Record<string, unknown>[] } }).data.results;
    const missing = biblioMapping.entries.map((e) => e.wire).filter((k) => !(k in result!));
    // Like real answers, empty fields are left out rather than sent as null.
    expect(missing.filter((k) => !['illustrator', 'jacket_condition'].includes(k))).toEqual([]);
    expect(Object.values(result!)).not.toContain(null);
  });

  it('Biblio answers "nothing found" with number_found 0 and results left out or null', async () => {
    const shapes = new Set<string>();
    for (const isbn of isbns.filter((i) => !hasOffers(i, opts)).slice(0, 12)) {
      const doc = (await (await fetch(`${sandbox.url}/biblio/api/product_search?isbn=${isbn}`)).json()) as {
        data: { meta: { number_found: number }; results?: unknown };
      };
      expect(doc.data.meta.number_found).toBe(0);
      shapes.add('results' in doc.data ? String(doc.data.results) : 'absent');
      expect(await adapters.biblio.lookup(isbn!, { signal })).toEqual({ kind: 'no_offers', offers: [] });
    }
    expect([...shapes].sort()).toEqual(['absent', 'null']);
  });

  it('PalletIQ answers on /v1/isbn/{isbn}/0 with meta and winner.amazonLogData, status "failed" for none', async () => {
    const doc = await (await fetch(`${sandbox.url}/pallet-iq/v1/isbn/${withOffers}/0`)).json();
    expect(doc).toMatchObject({ meta: { title: bookFor(withOffers, opts.seed).title }, winner: { amazonLogData: {} } });
    expect(await (await fetch(`${sandbox.url}/pallet-iq/v1/isbn/${without}/0`)).json()).toEqual({ status: 'failed' });
  });

  it('some AbeBooks answers come in ISO-8859-1, and read back without a lost character', async () => {
    const charsets = new Set<string>();
    for (const isbn of isbns.filter((i) => hasOffers(i, opts)).slice(0, 24)) {
      const res = await fetch(`${sandbox.url}/abe-books/search?isbn=${isbn}`);
      const head = new TextDecoder('latin1').decode((await res.arrayBuffer()).slice(0, 60));
      charsets.add(/encoding="([^"]+)"/.exec(head)![1]!);
      const outcome = await adapters.abe_books.lookup(isbn!, { signal });
      expect(JSON.stringify(outcome)).not.toContain('\uFFFD');
    }
    expect([...charsets].sort()).toEqual(['ISO-8859-1', 'UTF-8']);
  });

  it('an unreadable ISBN gets each marketplace’s own error message', async () => {
    const messages = Object.fromEntries(
      await Promise.all(MARKETPLACE_IDS.map(async (id) => [id, await adapters[id].lookup('97801', { signal })])),
    );
    expect(messages).toEqual({
      abe_books: { kind: 'failed', message: 'Invalid ISBN value provided: 97801' },
      biblio: { kind: 'failed', message: 'Invalid value for parameter isbn: 97801' },
      alibris: { kind: 'failed', message: 'Invalid ISBN: 97801' },
      pallet_iq: { kind: 'no_offers', offers: [] },
      amazon: { kind: 'no_offers', offers: [], reason: "Amazon's catalog has no item with this ISBN" },
      ebay: {
        kind: 'failed',
        message: "eBay: 12022 The 'gtin' value 97801 is invalid. For information, see the API call reference documentation.",
      },
    });
  });

  it('counts calls per marketplace and ISBN', async () => {
    const isbn = isbns[199];
    await adapters.alibris.lookup(isbn!, { signal });
    await adapters.alibris.lookup(isbn!, { signal });
    const stats = sandbox.stats();
    expect(stats.calls[`alibris:${isbn}`]).toHaveLength(2);
    expect(stats.calls[`biblio:${isbn}`]).toBeUndefined();
    expect(stats.byMarketplace.alibris.requests).toBeGreaterThanOrEqual(2);
  });

  it('tells its counts at GET /_sandbox/stats, for processes other than its own, without counting that request', async () => {
    const isbn = isbns[198];
    await adapters.biblio.lookup(isbn!, { signal });
    const before = sandbox.stats();
    const res = await fetch(`${sandbox.url}/_sandbox/stats`);
    expect(res.status).toBe(200);
    const told = (await res.json()) as SandboxStats;
    expect(told).toEqual(before);
    expect(told.asked[`biblio:${isbn}`]).toBe(1);
    expect(told.byMarketplace.biblio.firstAt).toBeLessThanOrEqual(told.byMarketplace.biblio.lastAt!);
    expect(sandbox.stats().requests).toBe(before.requests);
  });

  it('answers unknown paths with 404', async () => {
    expect((await fetch(`${sandbox.url}/amazon/search`)).status).toBe(404);
  });
});

describe('sandbox faults', () => {
  const isbn = sampleIsbns(1, 486_229_870)[0];

  it('429 with Retry-After is a retry after that long, on every adapter', () =>
    withSandbox({ rate429Share: 1, retryAfterSeconds: 2 }, async (sandbox) => {
      const adapters = adaptersFor(sandbox);
      for (const id of MARKETPLACE_IDS) {
        // Alibris says it as its gateway does: 403 with a Mashery code.
        const reason =
          id === 'alibris'
            ? 'Alibris: over the queries-per-second limit (ERR_403_DEVELOPER_OVER_QPS)'
            : id === 'amazon'
              ? 'Rate limited (QuotaExceeded: You exceeded your quota for the requested resource.)'
              : 'Rate limited (429)';
        expect(await adapters[id].lookup(isbn!, { signal })).toEqual({ kind: 'retry', reason, retryAfterMs: 2000, rateLimited: true });
      }
    }));

  it('with a key configured, a wrong key is refused the way each marketplace does: final, readable', () =>
    withSandbox({ apiKey: 'right' }, async (sandbox) => {
      // eBay's keyset is a client id (the credential) and a secret; the id is what the sandbox checks.
      const wrong = adaptersFor(sandbox, { credential: 'wrong', extra: { EBAY_CLIENT_SECRET: 's' } });
      const outcomes = Object.fromEntries(
        await Promise.all(MARKETPLACE_IDS.map(async (id) => [id, await wrong[id].lookup(isbn!, { signal })])),
      );
      expect(outcomes).toEqual({
        abe_books: { kind: 'failed', message: 'Marketplace rejected the credentials (401)' },
        biblio: { kind: 'failed', message: 'Marketplace rejected the credentials (401)' },
        alibris: { kind: 'failed', message: 'Alibris: the API key is inactive (ERR_403_DEVELOPER_INACTIVE)' },
        pallet_iq: { kind: 'failed', message: 'Marketplace rejected the credentials (401)' },
        amazon: { kind: 'failed', message: 'Amazon refused the access token (403: Unauthorized: Access to requested resource is denied.)' },
        // Refused at the token exchange, before any search.
        ebay: {
          kind: 'failed',
          message:
            'eBay refused the application keys (EBAY_CLIENT_ID / EBAY_CLIENT_SECRET), HTTP 401: invalid_client: client authentication failed',
        },
      });
      const right = adaptersFor(sandbox, { credential: 'right', extra: { EBAY_CLIENT_SECRET: 's' } });
      for (const id of MARKETPLACE_IDS) expect((await right[id].lookup(isbn!, { signal })).kind).not.toBe('failed');
      expect(sandbox.stats().byResult.bad_key).toBe(5);
    }));

  it('503 and truncated bodies are retries', () =>
    withSandbox({ rate5xxShare: 0.5, malformedShare: 0.5 }, async (sandbox) => {
      const adapters = adaptersFor(sandbox);
      const reasons = new Set<string>();
      for (const id of MARKETPLACE_IDS) {
        for (const i of sampleIsbns(10)) {
          const outcome = await adapters[id].lookup(i, { signal });
          expect(outcome.kind).toBe('retry');
          if (outcome.kind === 'retry') reasons.add(outcome.reason.replace(/:.*/, ''));
        }
      }
      expect([...reasons].sort()).toEqual(['Amazon unavailable (503)', 'Malformed response', 'Marketplace unavailable (503)']);
    }));

  it('a hanging answer ends in the client’s timeout', () =>
    withSandbox({ timeoutShare: 1 }, async (sandbox) => {
      const outcome = await adaptersFor(sandbox, { timeoutMs: 150 }).biblio.lookup(isbn!, { signal });
      expect(outcome).toEqual({ kind: 'retry', reason: 'Timed out after 150 ms' });
      expect(sandbox.stats().byResult.timeout).toBe(1);
    }));

  it('faults are drawn per attempt, so retrying gets through', () =>
    withSandbox({ rate429Share: 0.6, noOfferShare: 0 }, async (sandbox) => {
      const adapter = adaptersFor(sandbox).abe_books;
      const kinds: string[] = [];
      for (let attempt = 0; attempt < 20 && kinds.at(-1) !== 'completed'; attempt++) {
        kinds.push((await adapter.lookup(isbn!, { signal })).kind);
      }
      expect(kinds.at(-1)).toBe('completed');
      // The same seed replays the same sequence.
      await withSandbox({ rate429Share: 0.6, noOfferShare: 0 }, async (again) => {
        const replay: string[] = [];
        for (let i = 0; i < kinds.length; i++) replay.push((await adaptersFor(again).abe_books.lookup(isbn!, { signal })).kind);
        expect(replay).toEqual(kinds);
      });
    }));
});

describe('sandbox throughput', () => {
  it('sustains well over 160 requests/s at 100 ms latency', () =>
    withSandbox({ latencyMs: 100 }, async (sandbox) => {
      const adapter = adaptersFor(sandbox).alibris;
      const queue = sampleIsbns(1000);
      const started = performance.now();
      // 100 callers in parallel, like several workers' concurrency together.
      await Promise.all(
        Array.from({ length: 100 }, async () => {
          for (let i = queue.pop(); i; i = queue.pop()) await adapter.lookup(i, { signal });
        }),
      );
      const perSecond = 1000 / ((performance.now() - started) / 1000);
      expect(sandbox.stats().byMarketplace.alibris.requests).toBe(1000);
      // Serving one request at a time would be 10/s; the figure the workers need is 160/s. ~1,000/s on an
      // idle machine, 371/s seen with the machine shared by four test runs: only the need is asserted.
      expect(perSecond).toBeGreaterThan(160);
    }));
});
