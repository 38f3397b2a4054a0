// What every marketplace adapter promises the worker: one ISBN in, one classified outcome out.
import type { MarketplaceId } from '@app/domain/marketplaces';

/** A row's data columns as an adapter fills them (column name → value). */
export type LookupRecord = Record<string, string | number | null>;

export type LookupOutcome =
  /** At least one offer: `record` is the chosen one mapped to our columns, `offers` all of them as sent. */
  | { kind: 'completed'; record: LookupRecord; offers: unknown[] }
  /**
   * The marketplace answered with no offer. `record` keeps what it said about the book all the same
   * (Amazon's title and sales rank), `reason` why there is none when it says (an ISBN it does not know).
   */
  | { kind: 'no_offers'; offers: []; record?: LookupRecord; reason?: string }
  /** The marketplace answered and said no; asking again will not help. */
  | { kind: 'failed'; message: string }
  /**
   * Transient (rate limited, outage, timeout, garbled body): ask again later. `rateLimited` marks
   * the marketplace refusing us for asking too often (429, Mashery's over-QPS 403), counted apart.
   */
  | { kind: 'retry'; reason: string; retryAfterMs?: number; rateLimited?: true };

/** Waits for a request slot of one of the marketplace's operations (shared by every worker). */
export type Pace = (operation: string) => Promise<void>;

export interface MarketplaceAdapter {
  id: MarketplaceId;
  lookup(isbn13: string, opts: { signal: AbortSignal }): Promise<LookupOutcome>;
  /**
   * Marketplaces whose registry entry declares a `batchSize`: many ISBNs per request, one outcome per
   * ISBN in the same order (an error the marketplace reports for one item is that item's outcome).
   * The adapter paces each request itself with `pace(operation)`, since a batch spends several
   * operations with their own rates.
   */
  lookupBatch?(isbns13: string[], opts: { signal: AbortSignal; pace: Pace }): Promise<LookupOutcome[]>;
}

export interface MarketplaceSettings {
  /** Where the marketplace (or the sandbox standing in for it) answers, without a trailing slash. */
  baseUrl: string;
  /** API key / client key; undefined means no real account (the sandbox does not check). */
  credential?: string;
  /** Requests per second this worker process may send. */
  ratePerSecond: number;
  /** Requests this worker process may have in flight at once. */
  concurrency: number;
  /** Give up on one request after this long and retry later. */
  timeoutMs: number;
  /** Attempts (including the first) before a transient failure becomes `failed`. */
  maxAttempts: number;
  /** ISBNs per request for a batch marketplace (its registry entry's `batchSize`); absent: one at a time. */
  batchSize?: number;
  /** Requests per second of each operation of a marketplace that declares operations (all workers together). */
  operationRates?: Record<string, number>;
  /** Calls the marketplace allows a day, shared by every worker (only marketplaces that have such a quota). */
  dailyCallBudget?: number;
  /** The largest answer read (MARKETPLACE_MAX_RESPONSE_BYTES); a larger one fails the lookup. Default: http.ts. */
  maxResponseBytes?: number;
  /** Of `dailyCallBudget`, the calls batch jobs leave for interactive ones; unset: DEFAULT_RESERVE_SHARE of it (worker/daily-budget.ts). */
  dailyReserve?: number;
  /** The marketplace's own settings beyond these (registry `extraEnv`), by env name; its adapter reads them. */
  extra?: Record<string, unknown>;
}
