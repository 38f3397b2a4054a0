// The sandbox's knobs, with one set of defaults for `startSandbox` and for the environment.
import { z } from 'zod';
import { envBool, envPort } from '../core/config.ts';

export interface SandboxOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Every answer waits this long (a marketplace's think time). */
  latencyMs: number;
  /** Share of ISBNs (0..1) with no offers anywhere; fixed per ISBN. */
  noOfferShare: number;
  /** An ISBN with offers has 1..maxOffers per marketplace. */
  maxOffers: number;
  /** Share of requests answered 429 with Retry-After: retryAfterSeconds. */
  rate429Share: number;
  retryAfterSeconds: number;
  /** Share of requests answered 503. */
  rate5xxShare: number;
  /** Share of requests never answered (the client must give up). */
  timeoutShare: number;
  /** Share of requests answered 200 with a truncated body. */
  malformedShare: number;
  /** When set, every marketplace refuses requests without this key, as the real one would. */
  apiKey?: string;
  /**
   * ISBNs refused the way the marketplace refuses an ISBN it does not accept (a final failure, no
   * retry), each for its first n requests per marketplace (Infinity: always); later ones answer as usual.
   */
  failIsbns: Record<string, number>;
  /** Prices of an ISBN change with each request for it (catalog.ts DRIFT_FACTORS), so a re-price shows a change. */
  priceDrift: boolean;
  /** Seeds offers and faults; faults are drawn per (marketplace, ISBN, attempt), so a retry can succeed. */
  seed: number;
}

export const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = {
  host: '127.0.0.1',
  // A free port, so any number of `npm start`s (and test runs) can each have their own. `npm run
  // sandbox` prints the URL to give other processes; set SANDBOX_PORT to pin it.
  port: 0,
  latencyMs: 100,
  noOfferShare: 0.2,
  maxOffers: 8,
  rate429Share: 0,
  retryAfterSeconds: 1,
  rate5xxShare: 0,
  timeoutShare: 0,
  malformedShare: 0,
  failIsbns: {},
  priceDrift: false,
  seed: 1,
};

/** SANDBOX_FAIL_ISBNS: `isbn[:n],…` (refused for the first n requests per marketplace; always without n). */
export const FailIsbns = z
  .string()
  .regex(/^\s*(\w+(:\d+)?\s*(,\s*\w+(:\d+)?\s*)*)?$/, 'a comma-separated list of isbn or isbn:n')
  .transform((list) =>
    Object.fromEntries(
      list
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => {
          const [isbn = '', n] = entry.split(':');
          return [isbn, n === undefined ? Number.POSITIVE_INFINITY : Number(n)];
        }),
    ),
  );

const share = (fallback: number) => z.coerce.number().min(0).max(1).default(fallback);
const nonNegative = (fallback: number) => z.coerce.number().min(0).default(fallback);
const d = DEFAULT_SANDBOX_OPTIONS;

/**
 * The sandbox's section of the configuration schema (see core/config.ts): whether the API starts
 * one, where an external one runs, and the knobs of the one started (`npm start` or `npm run sandbox`).
 */
export const sandboxConfigSection = z
  .object({
    /** auto: the API starts one when some marketplace has neither a key nor a base URL, and SANDBOX_URL is unset. */
    RUN_SANDBOX: z.enum(['auto', 'true', 'false']).default('auto'),
    /** Root of a sandbox running elsewhere (`npm run sandbox`), for workers in other processes. */
    SANDBOX_URL: z.string().url().optional(),
    SANDBOX_HOST: z.string().default(d.host),
    SANDBOX_PORT: envPort.default(d.port),
    SANDBOX_LATENCY_MS: nonNegative(d.latencyMs),
    SANDBOX_NO_OFFER_SHARE: share(d.noOfferShare),
    SANDBOX_MAX_OFFERS: z.coerce.number().int().min(1).default(d.maxOffers),
    SANDBOX_RATE_429_SHARE: share(d.rate429Share),
    SANDBOX_RETRY_AFTER_SECONDS: nonNegative(d.retryAfterSeconds),
    SANDBOX_RATE_5XX_SHARE: share(d.rate5xxShare),
    SANDBOX_TIMEOUT_SHARE: share(d.timeoutShare),
    SANDBOX_MALFORMED_SHARE: share(d.malformedShare),
    SANDBOX_FAIL_ISBNS: FailIsbns.default(d.failIsbns),
    SANDBOX_PRICE_DRIFT: envBool.default(d.priceDrift),
    SANDBOX_SEED: z.coerce.number().int().default(d.seed),
    SANDBOX_API_KEY: z.string().optional(),
  })
  .transform((e) => ({
    run: e.RUN_SANDBOX,
    url: e.SANDBOX_URL,
    options: {
      host: e.SANDBOX_HOST,
      port: e.SANDBOX_PORT,
      latencyMs: e.SANDBOX_LATENCY_MS,
      noOfferShare: e.SANDBOX_NO_OFFER_SHARE,
      maxOffers: e.SANDBOX_MAX_OFFERS,
      rate429Share: e.SANDBOX_RATE_429_SHARE,
      retryAfterSeconds: e.SANDBOX_RETRY_AFTER_SECONDS,
      rate5xxShare: e.SANDBOX_RATE_5XX_SHARE,
      timeoutShare: e.SANDBOX_TIMEOUT_SHARE,
      malformedShare: e.SANDBOX_MALFORMED_SHARE,
      failIsbns: e.SANDBOX_FAIL_ISBNS,
      priceDrift: e.SANDBOX_PRICE_DRIFT,
      seed: e.SANDBOX_SEED,
      ...(e.SANDBOX_API_KEY === undefined ? {} : { apiKey: e.SANDBOX_API_KEY }),
    } satisfies SandboxOptions,
  }));

export type SandboxConfig = z.output<typeof sandboxConfigSection>;
