// Book details' section of the configuration schema (see core/config.ts): where Open Library is, how
// the worker asks it (batch, rate, User-Agent) and how rarely a book's details are refreshed.
import { z } from 'zod';
import { envBool } from '../core/config.ts';
import { envDuration } from '../core/duration.ts';
import type { OpenLibrarySettings } from './openlibrary.ts';

export const OPEN_LIBRARY_URL = 'https://openlibrary.org';
/** The sandbox answers Open Library's shape under this path segment. */
export const OPEN_LIBRARY_SANDBOX_SEGMENT = 'openlibrary';

export interface BookDetailsSettings extends OpenLibrarySettings {
  /** ISBNs per request (Open Library takes many bibkeys at once). */
  batchSize: number;
  /** Requests per second this worker process sends Open Library. */
  ratePerSecond: number;
  /** Details older than this are fetched again when a new job has the ISBN. */
  refreshMs: number;
}

export const bookDetailsConfigSection = z
  .object({
    /** The worker fetches title, authors, publisher, year and cover for the ISBNs of new jobs. */
    BOOK_DETAILS: envBool.default(true),
    /** Unset: openlibrary.org, or the sandbox's copy when no marketplace has a key (everything simulated). */
    OPENLIBRARY_URL: z.url().optional(),
    OPENLIBRARY_USER_AGENT: z.string().min(1).default('PriceLookupDashboard/1.0 (book dealers price dashboard)'),
    OPENLIBRARY_RATE_PER_SECOND: z.coerce.number().positive().default(1),
    OPENLIBRARY_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
    BOOK_DETAILS_BATCH_SIZE: z.coerce.number().int().min(1).max(100).default(50),
    BOOK_DETAILS_REFRESH: envDuration.default(90 * 86_400_000),
  })
  .transform((e) => ({
    enabled: e.BOOK_DETAILS,
    url: e.OPENLIBRARY_URL,
    userAgent: e.OPENLIBRARY_USER_AGENT,
    ratePerSecond: e.OPENLIBRARY_RATE_PER_SECOND,
    timeoutMs: e.OPENLIBRARY_TIMEOUT_MS,
    batchSize: e.BOOK_DETAILS_BATCH_SIZE,
    refreshMs: e.BOOK_DETAILS_REFRESH,
  }));

export type BookDetailsConfig = z.output<typeof bookDetailsConfigSection>;

/**
 * The worker's book-details settings, or undefined when turned off. Without OPENLIBRARY_URL a
 * process whose marketplaces are all simulated asks the sandbox (a demo or a test never needs the
 * internet); one with real keys asks openlibrary.org.
 */
export function bookDetailsSettings(
  config: BookDetailsConfig,
  sandboxUrl: string | undefined,
  everythingSimulated: boolean,
): BookDetailsSettings | undefined {
  if (!config.enabled) return undefined;
  const sandbox = everythingSimulated && sandboxUrl ? `${sandboxUrl.replace(/\/+$/, '')}/${OPEN_LIBRARY_SANDBOX_SEGMENT}` : undefined;
  const { enabled: _, url, ...rest } = config;
  return { ...rest, url: (url ?? sandbox ?? OPEN_LIBRARY_URL).replace(/\/+$/, '') };
}
