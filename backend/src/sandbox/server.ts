// A local stand-in for the four marketplaces: one node:http server, each marketplace under its slug
// (/abe-books/search, /biblio/api/product_search, /alibris/v1/public/search, /pallet-iq/v1/isbn/{isbn}/0,
// /ebay/buy/browse/v1/item_summary/search and its token endpoint),
// answering in its wire format with offers derived from the ISBN and the configured faults. With
// `apiKey` set, a request carrying another key (or none) is refused the way that marketplace does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKETPLACE_LIST, byMarketplace as byMarketplaceOf, type MarketplaceId } from '@app/domain/marketplaces';
import { bookFor, driftedListings, listingsFor } from './catalog.ts';
import { faultFor } from './faults.ts';
import type { SandboxReply, SandboxService, SimulatedFormat } from './formats/types.ts';
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
}

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

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    requests++;
    const url = new URL(req.url ?? '/', 'http://sandbox');
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
    const other = format?.endpoint && slash !== -1 ? await otherEndpoint(format, req, url.pathname.slice(slash), opts.apiKey) : null;
    if (other) return send(res, other);
    const asked = format && slash !== -1 ? format.read(url.pathname.slice(slash), url.searchParams, req.headers) : null;
    if (!id || !format || !asked) {
      byResult.not_found++;
      return send(res, { status: 404, contentType: 'application/json', body: '{"detail":"Not Found"}' });
    }
    const now = Date.now();
    const market = byMarketplace[id];
    market.requests++;
    market.firstAt ??= now;
    market.lastAt = now;
    const { isbn } = asked;
    const key = `${id}:${isbn}`;
    const entry = seen.get(key) ?? { count: 0, times: [] };
    seen.set(key, entry);
    entry.count++;
    if (entry.times.length < MAX_TIMES_KEPT) entry.times.push(now);

    const fault = faultFor(opts, id, isbn, entry.count);
    if (fault === 'timeout') {
      byResult.timeout++;
      return; // never answer; the socket closes when the client gives up
    }
    if (opts.latencyMs > 0) await sleep(opts.latencyMs);
    if (res.destroyed) return;
    if (opts.apiKey !== undefined && asked.key !== opts.apiKey) {
      byResult.bad_key++;
      return send(res, format.badKey());
    }
    if (fault === 'rate_limited') {
      byResult.rate_limited++;
      res.setHeader('retry-after', String(opts.retryAfterSeconds));
      return send(
        res,
        format.rateLimited?.(opts.retryAfterSeconds) ?? { status: 429, contentType: 'text/plain', body: 'Too Many Requests' },
      );
    }
    if (fault === 'unavailable') {
      byResult.unavailable++;
      return send(res, { status: 503, contentType: 'text/plain', body: 'Service Unavailable' });
    }
    if (!VALID_ISBN.test(isbn) || entry.count <= (opts.failIsbns[isbn] ?? 0)) {
      byResult.error++;
      return send(res, format.invalidIsbn(isbn));
    }
    const book = bookFor(isbn.toUpperCase(), opts.seed);
    const stock = listingsFor(id, book, opts);
    const listings = opts.priceDrift ? driftedListings(stock, entry.count) : stock;
    const reply = format.offers(book, listings);
    if (fault === 'malformed') {
      byResult.malformed++;
      return send(res, { ...reply, body: reply.body.slice(0, Math.floor(reply.body.length / 2)) });
    }
    byResult[listings.length ? 'offers' : 'no_offers']++;
    send(res, reply);
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
    stats: () => ({
      requests,
      byResult: { ...byResult },
      byMarketplace: structuredClone(byMarketplace),
      calls: Object.fromEntries([...seen].map(([k, v]) => [k, [...v.times]])),
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A marketplace's endpoint besides its search (eBay's token exchange), with the request body read. */
async function otherEndpoint(
  format: SimulatedFormat,
  req: http.IncomingMessage,
  path: string,
  apiKey: string | undefined,
): Promise<SandboxReply | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return (
    format.endpoint?.({ method: req.method ?? 'GET', path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }, apiKey) ??
    null
  );
}

function send(res: http.ServerResponse, reply: SandboxReply): void {
  const body = Buffer.from(reply.body, reply.encoding ?? 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'content-type': reply.contentType, 'content-length': body.length });
  res.end(body);
}
