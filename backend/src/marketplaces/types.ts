// What every marketplace adapter promises the worker: one ISBN in, one classified outcome out.
import type { MarketplaceId } from '@app/domain/marketplaces';

/** A row's data columns as an adapter fills them (column name → value). */
export type LookupRecord = Record<string, string | number | null>;

export type LookupOutcome =
  /** At least one offer: `record` is the chosen one mapped to our columns, `offers` all of them as sent. */
  | { kind: 'completed'; record: LookupRecord; offers: unknown[] }
  | { kind: 'no_offers'; offers: [] }
  /** The marketplace answered and said no; asking again will not help. */
  | { kind: 'failed'; message: string }
  /** Transient (rate limited, outage, timeout, garbled body): ask again later. */
  | { kind: 'retry'; reason: string; retryAfterMs?: number };

export interface MarketplaceAdapter {
  id: MarketplaceId;
  lookup(isbn13: string, opts: { signal: AbortSignal }): Promise<LookupOutcome>;
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
  /** Calls the marketplace allows a day, shared by every worker (only marketplaces that have such a quota). */
  dailyCallBudget?: number;
  /** The marketplace's own settings beyond these (registry `extraEnv`), by env name; its adapter reads them. */
  extra?: Record<string, unknown>;
}
