// The sandbox's knobs, with one set of defaults for `startSandbox` and for the environment.
import { z } from 'zod';
import { blankAsUnset as unset, parseEnvSection } from '../marketplaces/env.ts';

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
  /** Seeds offers and faults; faults are drawn per (marketplace, ISBN, attempt), so a retry can succeed. */
  seed: number;
}

export const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = {
  host: '127.0.0.1',
  port: 0,
  latencyMs: 100,
  noOfferShare: 0.2,
  maxOffers: 8,
  rate429Share: 0,
  retryAfterSeconds: 1,
  rate5xxShare: 0,
  timeoutShare: 0,
  malformedShare: 0,
  seed: 1,
};

const share = (fallback: number) => z.preprocess(unset, z.coerce.number().min(0).max(1).default(fallback));
const nonNegative = (fallback: number) => z.preprocess(unset, z.coerce.number().min(0).default(fallback));
const d = DEFAULT_SANDBOX_OPTIONS;

const envSchema = z.object({
  SANDBOX_HOST: z.preprocess(unset, z.string().default(d.host)),
  SANDBOX_PORT: z.preprocess(unset, z.coerce.number().int().min(0).max(65535).default(8090)),
  SANDBOX_LATENCY_MS: nonNegative(d.latencyMs),
  SANDBOX_NO_OFFER_SHARE: share(d.noOfferShare),
  SANDBOX_MAX_OFFERS: z.preprocess(unset, z.coerce.number().int().min(1).default(d.maxOffers)),
  SANDBOX_RATE_429_SHARE: share(d.rate429Share),
  SANDBOX_RETRY_AFTER_SECONDS: nonNegative(d.retryAfterSeconds),
  SANDBOX_RATE_5XX_SHARE: share(d.rate5xxShare),
  SANDBOX_TIMEOUT_SHARE: share(d.timeoutShare),
  SANDBOX_MALFORMED_SHARE: share(d.malformedShare),
  SANDBOX_SEED: z.preprocess(unset, z.coerce.number().int().default(d.seed)),
  SANDBOX_API_KEY: z.preprocess(unset, z.string().optional()),
});

/** Sandbox options from SANDBOX_* variables (port 8090 unless SANDBOX_PORT says otherwise). */
export function sandboxOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxOptions {
  const e = parseEnvSection(envSchema, env, 'sandbox');
  return {
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
    seed: e.SANDBOX_SEED,
    ...(e.SANDBOX_API_KEY === undefined ? {} : { apiKey: e.SANDBOX_API_KEY }),
  };
}
