import type { Book, Listing } from '../catalog.ts';

export interface SandboxReply {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
  /** How the body is encoded on the wire (default UTF-8); must match what contentType declares. */
  encoding?: 'utf8' | 'latin1';
}

/** What the sandbox reads off a request: the ISBN asked for and the key sent, if any. */
export interface SimulatedRequest {
  isbn: string;
  key: string | undefined;
  /** Whether the request said where the buyer is (eBay's X-EBAY-C-ENDUSERCTX contextualLocation). */
  deliveryLocation?: boolean;
}

/**
 * What the sandbox holds for one ISBN of a batch request: its book and listings; `refused` when
 * SANDBOX_FAIL_ISBNS names it for this attempt; null when it is not an ISBN at all.
 */
export type Stock = { book: Book; listings: Listing[]; refused?: boolean } | null;

/** A request as a batch format reads it (method, path below the slug, query, headers and body). */
export interface RawRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * How a marketplace asking many ISBNs per request (or with endpoints of its own, like a token
 * endpoint) is served: `reply` answers at once; `isbns` are counted, faulted and refused per request
 * like a single lookup (the first ISBN draws the request's fault), then `answer` gets their stock.
 * `counts` false: the ISBNs were already counted by an earlier request of the same lookup.
 */
export type BatchRequest =
  | { reply: SandboxReply }
  | { isbns: string[]; key: string | undefined; counts: boolean; answer(stock: Map<string, Stock>): SandboxReply };

/** One marketplace's wire format as the sandbox speaks it (the shapes of real answers). */
export interface SimulatedFormat {
  /** Reads a request below the marketplace's slug; null when the path is not this API's. */
  read(path: string, query: URLSearchParams, headers: Record<string, string | string[] | undefined>): SimulatedRequest | null;
  /** Batch marketplaces: reads any request below the slug first (null: not a batch request, try `read`). */
  readBatch?(request: RawRequest): BatchRequest | null;
  offers(book: Book, listings: Listing[], request?: SimulatedRequest): SandboxReply;
  /** The marketplace's own error body for an ISBN it cannot read. */
  invalidIsbn(value: string): SandboxReply;
  /** How it refuses a wrong key. */
  badKey(): SandboxReply;
  /** How it says "slow down" (default: 429 with Retry-After). */
  rateLimited?(retryAfterSeconds: number): SandboxReply;
  /**
   * Another endpoint of the marketplace's API, answered before `read` (an OAuth token exchange);
   * null when the request is not for one. `apiKey` is SANDBOX_API_KEY: the keyset it must carry.
   */
  endpoint?(request: SimulatedCall, apiKey: string | undefined): SandboxReply | null;
}

/**
 * A service that is not a marketplace (Open Library's book data), under its own first path segment;
 * `host` is how the caller reached the sandbox (for URLs pointing back at it). Null: not its path.
 */
export type SandboxService = (call: { path: string; query: URLSearchParams; host: string }) => SandboxReply | null;

/** A request to a marketplace's other endpoint, body read. */
export interface SimulatedCall {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export const json = (body: unknown, status = 200): SandboxReply => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

export const money = (n: number) => n.toFixed(2);

/** Real answers leave absent fields out rather than sending null. */
export function withoutNulls<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** A query-string parameter as the single value the sandbox reads. */
export const queryParam = (query: URLSearchParams, name: string) => query.get(name) ?? undefined;
