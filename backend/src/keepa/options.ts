// Keepa's section of the configuration schema (see core/config.ts): the key, where Keepa is, how many
// codes per request and how rarely an ISBN's history is asked again. Keepa is a history source, not a
// selling marketplace: without a key it is off, except that a process whose marketplaces are all
// simulated asks the sandbox's copy (a demo or a test never needs the internet), like Open Library.
import { z } from 'zod';
import { envBool } from '../core/config.ts';
import { envDuration } from '../core/duration.ts';
import type { KeepaClientSettings } from './client.ts';
import { KEEPA_MAX_CODES } from './wire.ts';

export const KEEPA_URL = 'https://api.keepa.com';
/** The sandbox answers Keepa's shape under this path segment. */
export const KEEPA_SANDBOX_SEGMENT = 'keepa';
/** The key sent to the sandbox (it checks only that one is sent). */
export const KEEPA_SANDBOX_KEY = 'sandbox';

export interface KeepaSettings extends KeepaClientSettings {
  /** Codes per request (Keepa takes up to 100). */
  batchSize: number;
  /** An ISBN's history is asked again when its last answer is older than this. */
  refreshMs: number;
}

export const keepaConfigSection = z
  .object({
    /** Keepa's API key: with it the worker fetches each Amazon ISBN's rank and price history. */
    KEEPA_API_KEY: z.string().min(1).optional(),
    /** Unset: api.keepa.com with a key; without one, the sandbox's copy when every marketplace is simulated. */
    KEEPA_URL: z.url().optional(),
    /** false: never ask Keepa, not even the sandbox. */
    KEEPA: envBool.default(true),
    KEEPA_BATCH_SIZE: z.coerce.number().int().min(1).max(KEEPA_MAX_CODES).default(KEEPA_MAX_CODES),
    KEEPA_REFRESH: envDuration.default(86_400_000),
    KEEPA_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  })
  .transform((e) => ({
    enabled: e.KEEPA,
    key: e.KEEPA_API_KEY,
    url: e.KEEPA_URL,
    batchSize: e.KEEPA_BATCH_SIZE,
    refreshMs: e.KEEPA_REFRESH,
    timeoutMs: e.KEEPA_TIMEOUT_MS,
  }));

export type KeepaConfig = z.output<typeof keepaConfigSection>;

/** The worker's Keepa settings, or undefined when Keepa is off (no key and not everything simulated). */
export function keepaSettings(
  config: KeepaConfig,
  sandboxUrl: string | undefined,
  everythingSimulated: boolean,
): KeepaSettings | undefined {
  if (!config.enabled) return undefined;
  const { batchSize, refreshMs, timeoutMs } = config;
  if (config.key) return { key: config.key, url: (config.url ?? KEEPA_URL).replace(/\/+$/, ''), batchSize, refreshMs, timeoutMs };
  if (!everythingSimulated || !sandboxUrl) return undefined;
  const url = config.url ?? `${sandboxUrl.replace(/\/+$/, '')}/${KEEPA_SANDBOX_SEGMENT}`;
  return { key: KEEPA_SANDBOX_KEY, url: url.replace(/\/+$/, ''), batchSize, refreshMs, timeoutMs };
}
