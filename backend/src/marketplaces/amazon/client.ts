// Amazon (Selling Partner API), 20 ISBNs per batch (evidence in mapping.ts):
//  1. GET {base}/catalog/2022-04-01/items?identifiers=<≤20 ISBN-13>&identifiersType=EAN&marketplaceIds=…
//     &includedData=summaries,identifiers,salesRanks&pageSize=20 → each ISBN's ASIN, title, author,
//     sales rank. One identifier may match several items (other bindings, Kindle), so 20 identifiers
//     can fill more than a page: pagination.nextToken is followed (as pageToken) until it is absent.
//     EAN, not ISBN: an ISBN-13 is an EAN-13, Amazon says its index converts GTIN-compatible
//     identifiers to GTINs (amzn/selling-partner-api-models#264), and the only public evidence of a
//     13-digit lookup answering uses identifiersType=EAN (#271). The model lists ISBN in its enum but
//     no example or report shows it answering for a 13-digit value;
//  2. POST {base}/batches/products/pricing/v0/itemOffers with one Used request per ASIN → offers.
// Only Used is asked: the Used answer's Summary carries its entries per condition, so the lowest new
// price and new offer count come from it, and a second (New) batch would halve the throughput
// (getItemOffersBatch: 0.1 requests/s, i.e. 2 ASINs/s). Each request waits for its operation's shared
// rate slot (`pace`). Auth: x-amz-access-token from Login with Amazon (lwa.ts).
import { must } from '@app/domain/must';
import { z } from 'zod';
import { describe, MalformedResponseError, parseJsonObject, parseRetryAfter, timedFetch } from '../http.ts';
import type { LookupOutcome, MarketplaceAdapter, MarketplaceSettings, Pace } from '../types.ts';
import { LwaError, LwaTokens } from './lwa.ts';
import {
  bookOutcome,
  catalogOnly,
  checkOffersPayload,
  errorsText,
  isQuotaExceeded,
  nextPageToken,
  readCatalog,
  readOffersBatch,
} from './wire.ts';

/** ISBNs per catalog search (identifiers: at most 20) and ASINs per offers batch (1–20 requests). */
export const AMAZON_BATCH_SIZE = 20;

/** Rates from the models' usage plans; each its own shared slot (AMAZON_<env>_RATE_PER_SECOND). Burst is not used. */
export const AMAZON_OPERATIONS = {
  catalog: { env: 'CATALOG', defaultRatePerSecond: 2 }, // searchCatalogItems: 2/s, burst 2
  offers: { env: 'OFFERS', defaultRatePerSecond: 0.1 }, // getItemOffersBatch: 0.1/s, burst 1
} as const;
type Operation = keyof typeof AMAZON_OPERATIONS;

export const CATALOG_PATH = '/catalog/2022-04-01/items';
export const OFFERS_BATCH_PATH = '/batches/products/pricing/v0/itemOffers';
export const NOT_IN_CATALOG = "Amazon's catalog has no item with this ISBN";
/** An ISBN-13 is an EAN-13 (see above). */
export const CATALOG_IDENTIFIERS_TYPE = 'EAN';
/**
 * Catalog pages followed per batch at most: 20 identifiers matching 5 items each. Beyond it the rest
 * of the batch is retried rather than called unknown (the model caps a search at 1,000 items).
 */
export const MAX_CATALOG_PAGES = 5;

/** Amazon's settings beyond the refresh token (registry extraEnv). */
export const AMAZON_ENV = {
  AMAZON_CLIENT_ID: z.string().optional(),
  AMAZON_CLIENT_SECRET: z.string().optional(),
  // Login with Amazon; without a refresh token the sandbox's own token endpoint answers.
  AMAZON_LWA_URL: z.string().min(1).optional(),
  AMAZON_MARKETPLACE_ID: z.string().min(1).default('ATVPDKIKX0DER'),
};
const AmazonExtra = z.object(AMAZON_ENV);

const noPace: Pace = async () => {};

/** Amazon's own hosts use Login with Amazon; anything else (the sandbox, a proxy) answers the token endpoint itself. */
export const lwaUrlFor = (baseUrl: string) =>
  /^https:\/\/sellingpartnerapi-[a-z]+\.amazon\.com$/.test(baseUrl) ? 'https://api.amazon.com' : baseUrl;

/** Every lookup of a batch gets the same outcome (the request as a whole failed). */
const all = (isbns: readonly string[], outcome: LookupOutcome) => isbns.map(() => outcome);

export function createAmazonAdapter(settings: MarketplaceSettings): MarketplaceAdapter {
  const extra = AmazonExtra.parse(settings.extra ?? {});
  const marketplaceId = extra.AMAZON_MARKETPLACE_ID;
  // Away from Amazon's hosts (the sandbox) the base URL also answers LWA's token endpoint.
  const atAmazon = lwaUrlFor(settings.baseUrl) !== settings.baseUrl;
  const tokens = new LwaTokens({
    url: (extra.AMAZON_LWA_URL ?? lwaUrlFor(settings.baseUrl)).replace(/\/+$/, ''),
    // Amazon's LWA needs the app's id and secret; the sandbox (or a proxy) takes any.
    clientId: extra.AMAZON_CLIENT_ID ?? (extra.AMAZON_LWA_URL || atAmazon ? undefined : 'sandbox'),
    clientSecret: extra.AMAZON_CLIENT_SECRET ?? (extra.AMAZON_LWA_URL || atAmazon ? undefined : 'sandbox'),
    refreshToken: settings.credential ?? '',
    timeoutMs: settings.timeoutMs,
  });
  const rate = (op: Operation) => settings.operationRates?.[op] ?? AMAZON_OPERATIONS[op].defaultRatePerSecond;

  /** Amazon's reading of a non-2xx answer to a whole request: every lookup in it shares it. */
  function refusal(op: Operation, status: number, headers: Headers, body: string): LookupOutcome {
    let doc: Record<string, unknown> | undefined;
    try {
      doc = parseJsonObject(body);
    } catch {
      doc = undefined;
    }
    const said = errorsText(doc);
    if (status === 429 || isQuotaExceeded(doc)) {
      // The models declare no Retry-After on 429: try again one request interval of that operation later.
      const retryAfterMs = parseRetryAfter(headers.get('retry-after')) ?? Math.ceil(1000 / rate(op));
      return { kind: 'retry', reason: `Rate limited (${said || status})`, retryAfterMs, rateLimited: true };
    }
    if (status === 408 || status >= 500) return { kind: 'retry', reason: `Amazon unavailable (${status}${said ? `: ${said}` : ''})` };
    if (status === 401 || status === 403) {
      tokens.forget();
      return { kind: 'failed', message: `Amazon refused the access token (${status}${said ? `: ${said}` : ''})` };
    }
    return { kind: 'failed', message: `Amazon answered HTTP ${status}${said ? `: ${said}` : ''}` };
  }

  async function send(op: Operation, url: string, init: RequestInit, token: string, signal: AbortSignal, pace: Pace) {
    await pace(op);
    const headers = { accept: 'application/json', 'x-amz-access-token': token, ...(init.headers as Record<string, string>) };
    return timedFetch(url, { ...init, headers }, settings.timeoutMs, signal, settings.maxResponseBytes);
  }

  async function lookupBatch(isbns: string[], opts: { signal: AbortSignal; pace: Pace }): Promise<LookupOutcome[]> {
    if (isbns.length === 0) return [];
    if (isbns.length > AMAZON_BATCH_SIZE) throw new Error(`Amazon takes at most ${AMAZON_BATCH_SIZE} ISBNs per request`);
    let token: string;
    try {
      token = await tokens.get();
    } catch (err) {
      if (err instanceof LwaError)
        return all(isbns, err.final ? { kind: 'failed', message: err.message } : { kind: 'retry', reason: err.message });
      throw err;
    }

    const catalog = await searchCatalog(isbns, token, opts);
    if ('outcome' in catalog) return all(isbns, catalog.outcome);
    const items = catalog.items;
    const asins = [...new Set([...items.values()].flatMap((i) => (i ? [i.asin] : [])))];
    const unknown: LookupOutcome = { kind: 'no_offers', offers: [], reason: NOT_IN_CATALOG };
    if (asins.length === 0) return all(isbns, unknown);

    const body = JSON.stringify({
      requests: asins.map((asin) => ({
        uri: `/products/pricing/v0/items/${encodeURIComponent(asin)}/offers`,
        method: 'GET',
        MarketplaceId: marketplaceId,
        ItemCondition: 'Used',
        CustomerType: 'Consumer',
      })),
    });
    const init = { method: 'POST', body, headers: { 'content-type': 'application/json' } };
    const offers = await send('offers', `${settings.baseUrl}${OFFERS_BATCH_PATH}`, init, token, opts.signal, opts.pace);
    let byAsin: ReturnType<typeof readOffersBatch> | undefined;
    let whole: LookupOutcome | undefined;
    if ('outcome' in offers) whole = offers.outcome;
    else if (offers.status < 200 || offers.status >= 300) whole = refusal('offers', offers.status, offers.headers, offers.body);
    else {
      try {
        byAsin = readOffersBatch(offers.body);
      } catch (err) {
        whole = { kind: 'retry', reason: `Malformed response: ${describe(err)}` };
      }
    }
    return isbns.map((isbn) => {
      const item = items.get(isbn);
      if (!item) return unknown;
      if (whole) return whole;
      const answer = must(byAsin, 'read when no whole-batch outcome').get(item.asin);
      if (!answer) return { kind: 'retry', reason: `Malformed response: no offers response for ASIN ${item.asin}` };
      return itemOutcome(item, answer);
    });
  }

  /**
   * searchCatalogItems for the batch, every page of it: the items of all pages by ISBN, or the one
   * outcome of the whole batch (a refusal, a retry) when a page could not be had or read.
   */
  async function searchCatalog(
    isbns: string[],
    token: string,
    opts: { signal: AbortSignal; pace: Pace },
  ): Promise<{ items: ReturnType<typeof readCatalog> } | { outcome: LookupOutcome }> {
    const query = new URLSearchParams({
      identifiers: isbns.join(','),
      identifiersType: CATALOG_IDENTIFIERS_TYPE,
      marketplaceIds: marketplaceId,
      includedData: 'summaries,identifiers,salesRanks',
      pageSize: String(AMAZON_BATCH_SIZE),
    });
    const pages: string[] = [];
    for (let page = 1; ; page++) {
      const answer = await send('catalog', `${settings.baseUrl}${CATALOG_PATH}?${query}`, {}, token, opts.signal, opts.pace);
      if ('outcome' in answer) return answer;
      if (answer.status < 200 || answer.status >= 300) return { outcome: refusal('catalog', answer.status, answer.headers, answer.body) };
      pages.push(answer.body);
      let next: string | undefined;
      try {
        next = nextPageToken(answer.body);
      } catch (err) {
        // A catalog answer cannot be split by ISBN once unreadable: the whole batch tries again.
        return { outcome: { kind: 'retry', reason: `Malformed response: ${describe(err)}` } };
      }
      if (next === undefined) break;
      // Never "not in the catalog" for an ISBN whose item may be on a page not read.
      if (page >= MAX_CATALOG_PAGES)
        return { outcome: { kind: 'retry', reason: `Amazon's catalog answer runs past ${MAX_CATALOG_PAGES} pages` } };
      query.set('pageToken', next);
    }
    try {
      return { items: readCatalog(pages, isbns) };
    } catch (err) {
      return { outcome: { kind: 'retry', reason: `Malformed response: ${describe(err)}` } };
    }
  }

  /** One response of the batch: its own status decides, like a whole answer would. */
  function itemOutcome(
    item: NonNullable<ReturnType<ReturnType<typeof readCatalog>['get']>>,
    answer: { status: number; body: Record<string, unknown> | undefined },
  ): LookupOutcome {
    if (answer.status === 404)
      return catalogOnly(
        item,
        `Amazon has no offers for ASIN ${item.asin}${errorsText(answer.body) ? ` (${errorsText(answer.body)})` : ''}`,
      );
    if (answer.status < 200 || answer.status >= 300)
      return refusal('offers', answer.status, new Headers(), answer.body ? JSON.stringify(answer.body) : '');
    try {
      return bookOutcome(item, checkOffersPayload(answer.body?.payload));
    } catch (err) {
      if (err instanceof MalformedResponseError) return { kind: 'retry', reason: `Malformed response: ${err.message}` };
      throw err;
    }
  }

  return {
    id: 'amazon',
    // One ISBN as a batch of one, unpaced: the worker always calls lookupBatch with its shared rate slots.
    lookup: async (isbn13, opts) => must((await lookupBatch([isbn13], { signal: opts.signal, pace: noPace }))[0], 'one outcome per ISBN'),
    lookupBatch,
  };
}
