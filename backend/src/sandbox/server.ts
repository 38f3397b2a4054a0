// A local stand-in for every marketplace: one node:http server, each marketplace under its slug
// (/abe-books/search, /biblio/api/product_search, /alibris/v1/public/search, /pallet-iq/v1/isbn/{isbn}/0,
// /ebay/buy/browse/v1/item_summary/search and its token endpoint),
// answering in its wire format with offers derived from the ISBN and the configured faults. With
// `apiKey` set, a request carrying another key (or none) is refused the way that marketplace does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKETPLACE_LIST, byMarketplace as byMarketplaceOf, type MarketplaceId } from '@app/domain/marketplaces';
import { bookFor, driftedListings, listingsFor, type Listing } from './catalog.ts';
import { faultFor } from './faults.ts';
import type { BatchRequest, SandboxReply, SandboxService, SimulatedFormat, Stock } from './formats/types.ts';
import { DEFAULT_SANDBOX_OPTIONS, type SandboxOptions } from './options.ts';

export type SandboxResult =
  | 'offers'
  | 'no_offers'
  | 'error'
  | 'bad_key'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'malformed'
  | 'not_found';

export interface SandboxStats {
  requests: number;
  byResult: Record<SandboxResult, number>;
  byMarketplace: Record<MarketplaceId, { requests: number; firstAt: number | null; lastAt: number | null }>;
  /** Arrival times (ms since epoch) of the requests for each `${marketplace}:${isbn}`, up to 32 each. */
  calls: Record<string, number[]>;
  /** How many requests came for each `${marketplace}:${isbn}` (every one, unlike `calls`). */
  asked: Record<string, number>;
}

/** Where the sandbox tells its counts over HTTP, for workers and tests in other processes. */
export const SANDBOX_STATS_PATH = '/_sandbox/stats';

export interface Sandbox {
  /** Root URL; a marketplace's base URL is `${url}/${slug}` (see sandboxBaseUrl). */
  url: string;
  options: SandboxOptions;
  stats(): SandboxStats;
  close(): Promise<void>;
}

const VALID_ISBN = /^(\d{9}[\dX]|\d{13})$/i;
const MAX_TIMES_KEPT = 32;
const bySlug = new Map<string, MarketplaceId>(MARKETPLACE_LIST.map((m) => [m.slug, m.id]));

/** Each marketplace's wire format, handed in by the marketplace registry (the sandbox knows none itself). */
export type SimulatedFormats = Record<MarketplaceId, SimulatedFormat>;

/**
 * Each marketplace's wire format, and other services the product calls (Open Library) under their
 * own path segment, handed in by the composition (the sandbox knows none itself).
 */
export async function startSandbox(
  formats: SimulatedFormats,
  overrides: Partial<SandboxOptions> = {},
  services: Record<string, SandboxService> = {},
): Promise<Sandbox> {
  const opts: SandboxOptions = { ...DEFAULT_SANDBOX_OPTIONS, ...overrides };
  const byResult = Object.fromEntries(
    (['offers', 'no_offers', 'error', 'bad_key', 'rate_limited', 'unavailable', 'timeout', 'malformed', 'not_found'] as const).map((r) => [
      r,
      0,
    ]),
  ) as Record<SandboxResult, number>;
  const byMarketplace: SandboxStats['byMarketplace'] = byMarketplaceOf(() => ({ requests: 0, firstAt: null, lastAt: null }));
  /** Per marketplace:ISBN: how many requests so far (the attempt number) and when they came. */
  const seen = new Map<string, { count: number; times: number[] }>();
  let requests = 0;

  const stats = (): SandboxStats => ({
    requests,
    byResult: { ...byResult },
    byMarketplace: structuredClone(byMarketplace),
    calls: Object.fromEntries([...seen].map(([k, v]) => [k, [...v.times]])),
    asked: Object.fromEntries([...seen].map(([k, v]) => [k, v.count])),
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    // Its own counts are no marketplace request, so they are not counted.
    if (req.method === 'GET' && url.pathname === SANDBOX_STATS_PATH)
      return send(res, { status: 200, contentType: 'application/json', body: JSON.stringify(stats()) });
    requests++;
    const slash = url.pathname.indexOf('/', 1);
    const segment = url.pathname.slice(1, slash === -1 ? undefined : slash);
    const service = Object.hasOwn(services, segment) ? services[segment] : undefined;
    const served =
      service && slash !== -1
        ? service({ path: url.pathname.slice(slash), query: url.searchParams, host: req.headers.host ?? 'localhost' })
        : null;
    if (served) return send(res, served);
    const id = bySlug.get(segment);
    const format = id && formats[id];
    if (id && format?.readBatch && slash !== -1) {
      const raw = {
        method: req.method ?? 'GET',
        path: url.pathname.slice(slash),
        query: url.searchParams,
        headers: req.headers,
        body: await readBody(req),
      };
      const batch = format.readBatch(raw);
      if (batch) return serveBatch(res, id, format, batch);
    }
    const other = format?.endpoint && slash !== -1 ? await otherEndpoint(format, req, url.pathname.slice(slash), opts.apiKey) : null;
    if (other) return send(res, other);
    const asked = format && slash !== -1 ? format.read(url.pathname.slice(slash), url.searchParams, req.headers) : null;
    if (!id || !format || !asked) {
      byResult.not_found++;
      return send(res, { status: 404, contentType: 'application/json', body: '{"detail":"Not Found"}' });
    }
    const { isbn } = asked;
    const entry = count(id, isbn, true);
    const fault = await requestFault(res, id, isbn, entry.count, asked.key, format);
    if (fault === 'answered') return;
    if (refused(isbn, entry.count)) {
      byResult.error++;
      return send(res, format.invalidIsbn(isbn));
    }
    const listings = stockOf(id, isbn, entry.count);
    const reply = format.offers(bookFor(isbn.toUpperCase(), opts.seed), listings, asked);
    sendAnswer(res, reply, fault, listings.length > 0);
  }

  /** Counts a request for (marketplace, ISBN): the attempt number and its arrival time. */
  function count(id: MarketplaceId, isbn: string, counts: boolean): { count: number; times: number[] } {
    const now = Date.now();
    const key = `${id}:${isbn}`;
    const entry = seen.get(key) ?? { count: 0, times: [] };
    seen.set(key, entry);
    if (!counts) return entry;
    entry.count++;
    if (entry.times.length < MAX_TIMES_KEPT) entry.times.push(now);
    return entry;
  }

  function countRequest(id: MarketplaceId): void {
    const now = Date.now();
    const market = byMarketplace[id];
    market.requests++;
    market.firstAt ??= now;
    market.lastAt = now;
  }

  /**
   * The request-level part of an answer: timeout, latency, a wrong key, 429, 503. 'answered' when
   * one of them answered (or never will); else the fault still to apply to the body (malformed) or null.
   */
  async function requestFault(
    res: http.ServerResponse,
    id: MarketplaceId,
    isbn: string,
    attempt: number,
    key: string | undefined,
    format: SimulatedFormat,
  ): Promise<'answered' | 'malformed' | null> {
    countRequest(id);
    const fault = faultFor(opts, id, isbn, attempt);
    if (fault === 'timeout') {
      byResult.timeout++;
      return 'answered'; // never answer; the socket closes when the client gives up
    }
    if (opts.latencyMs > 0) await sleep(opts.latencyMs);
    if (res.destroyed) return 'answered';
    if (opts.apiKey !== undefined && key !== opts.apiKey) {
      byResult.bad_key++;
      send(res, format.badKey());
      return 'answered';
    }
    if (fault === 'rate_limited') {
      byResult.rate_limited++;
      res.setHeader('retry-after', String(opts.retryAfterSeconds));
      send(res, format.rateLimited?.(opts.retryAfterSeconds) ?? { status: 429, contentType: 'text/plain', body: 'Too Many Requests' });
      return 'answered';
    }
    if (fault === 'unavailable') {
      byResult.unavailable++;
      send(res, { status: 503, contentType: 'text/plain', body: 'Service Unavailable' });
      return 'answered';
    }
    return fault === 'malformed' ? 'malformed' : null;
  }

  /** An ISBN the marketplace refuses: not an ISBN, or one SANDBOX_FAIL_ISBNS names for this attempt. */
  const refused = (isbn: string, attempt: number) => !VALID_ISBN.test(isbn) || attempt <= (opts.failIsbns[isbn] ?? 0);

  function stockOf(id: MarketplaceId, isbn: string, attempt: number): Listing[] {
    const stock = listingsFor(id, bookFor(isbn.toUpperCase(), opts.seed), opts);
    return opts.priceDrift ? driftedListings(stock, attempt) : stock;
  }

  function sendAnswer(res: http.ServerResponse, reply: SandboxReply, fault: 'malformed' | null, hasOffers: boolean): void {
    if (fault === 'malformed') {
      byResult.malformed++;
      send(res, { ...reply, body: reply.body.slice(0, Math.floor(reply.body.length / 2)) });
      return;
    }
    byResult[hasOffers ? 'offers' : 'no_offers']++;
    send(res, reply);
  }

  /** A batch request: every ISBN counted and stocked, the request's fault drawn from its first ISBN. */
  async function serveBatch(res: http.ServerResponse, id: MarketplaceId, format: SimulatedFormat, batch: BatchRequest): Promise<void> {
    if ('reply' in batch) {
      countRequest(id);
      return send(res, batch.reply);
    }
    const attempts = batch.isbns.map((isbn) => count(id, isbn, batch.counts).count);
    const fault = await requestFault(res, id, batch.isbns[0] ?? '', attempts[0] ?? 1, batch.key, format);
    if (fault === 'answered') return;
    const stock = new Map<string, Stock>(
      batch.isbns.map((isbn, i) => {
        const attempt = attempts[i] ?? 1;
        if (!VALID_ISBN.test(isbn)) return [isbn, null];
        const book = bookFor(isbn.toUpperCase(), opts.seed);
        return [isbn, refused(isbn, attempt) ? { book, listings: [], refused: true } : { book, listings: stockOf(id, isbn, attempt) }];
      }),
    );
    sendAnswer(
      res,
      batch.answer(stock),
      fault,
      [...stock.values()].some((s) => s && s.listings.length > 0),
    );
  }

  const server = http.createServer({ keepAlive: true }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, { status: 500, contentType: 'text/plain', body: String(err) });
    });
  });
  // Clients keep connections open between lookups; don't drop them between bursts.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${opts.host}:${port}`,
    options: opts,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A marketplace's endpoint besides its search (eBay's token exchange), with the request body read. */
async function otherEndpoint(
  format: SimulatedFormat,
  req: http.IncomingMessage,
  path: string,
  apiKey: string | undefined,
): Promise<SandboxReply | null> {
  const body = await readBody(req);
  return format.endpoint?.({ method: req.method ?? 'GET', path, headers: req.headers, body }, apiKey) ?? null;
}

function send(res: http.ServerResponse, reply: SandboxReply): void {
  const body = Buffer.from(reply.body, reply.encoding ?? 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'content-type': reply.contentType, 'content-length': body.length });
  res.end(body);
}
