// The backend's half of the marketplace registry (the pure facts are @app/domain/marketplaces):
// per marketplace, how it is configured from the environment, its adapter and its sandbox format.
import { MARKETPLACE_IDS, byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';
import { z } from 'zod';
import { ConfigError } from '../config.ts';
import { blankAsUnset as unset } from './env.ts';
import { sandboxBaseUrl } from '../sandbox/urls.ts';
import { createAbeBooksAdapter } from './abebooks/client.ts';
import { createAlibrisAdapter } from './alibris/client.ts';
import { createBiblioAdapter } from './biblio/client.ts';
import { createPalletIqAdapter } from './palletiq/client.ts';
import { abeBooksSim } from './abebooks/sandbox-format.ts';
import { alibrisSim } from './alibris/sandbox-format.ts';
import { biblioSim } from './biblio/sandbox-format.ts';
import { palletIqSim } from './palletiq/sandbox-format.ts';
import type { SimulatedFormat } from '../sandbox/formats/types.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from './types.ts';

export interface MarketplaceEntry {
  /** Prefix of this marketplace's env vars: <PREFIX>_BASE_URL, <PREFIX>_RATE_PER_SECOND, … */
  envPrefix: string;
  /** Env var holding the key. */
  credentialEnv: string;
  /** The real service, used when a key is set and no base URL is. */
  productionBaseUrl: string;
  /** Requests per second when <PREFIX>_RATE_PER_SECOND is unset. */
  defaultRatePerSecond: number;
  createAdapter(settings: MarketplaceSettings): MarketplaceAdapter;
  /** How the local sandbox speaks this marketplace's wire format. */
  simulator: SimulatedFormat;
}

export const marketplaceRegistry = {
  abe_books: {
    envPrefix: 'ABEBOOKS',
    credentialEnv: 'ABEBOOKS_CLIENT_KEY',
    productionBaseUrl: 'https://search2.abebooks.com',
    defaultRatePerSecond: 10, // no documented limit
    createAdapter: createAbeBooksAdapter,
    simulator: abeBooksSim,
  },
  biblio: {
    envPrefix: 'BIBLIO',
    credentialEnv: 'BIBLIO_API_KEY',
    productionBaseUrl: 'https://www.biblio.com',
    defaultRatePerSecond: 10, // no documented limit
    createAdapter: createBiblioAdapter,
    simulator: biblioSim,
  },
  alibris: {
    envPrefix: 'ALIBRIS',
    credentialEnv: 'ALIBRIS_API_KEY',
    // Public clients call http://api.alibris.com; we send the key over TLS. Set
    // ALIBRIS_BASE_URL=http://api.alibris.com if the account's endpoint refuses https.
    productionBaseUrl: 'https://api.alibris.com',
    // Mashery's standard developer plan, which Alibris' portal used: 2 calls/s (5,000 a day).
    defaultRatePerSecond: 2,
    createAdapter: createAlibrisAdapter,
    simulator: alibrisSim,
  },
  pallet_iq: {
    envPrefix: 'PALLETIQ',
    credentialEnv: 'PALLETIQ_API_KEY',
    // The host public client code calls (README: marketplace evidence).
    productionBaseUrl: 'https://api.palletiq.com',
    defaultRatePerSecond: 10, // no documented limit
    createAdapter: createPalletIqAdapter,
    simulator: palletIqSim,
  },
} satisfies Record<MarketplaceId, MarketplaceEntry>;

export type MarketplaceSettingsMap = Record<MarketplaceId, MarketplaceSettings>;

export function createAdapters(settings: MarketplaceSettingsMap): Record<MarketplaceId, MarketplaceAdapter> {
  return byMarketplace((m) => marketplaceRegistry[m.id].createAdapter(settings[m.id]));
}

const count = (fallback: number) => z.preprocess(unset, z.coerce.number().int().positive().default(fallback));
const envShape = {
  BASE_URL: z.preprocess(unset, z.string().url().optional()),
  CREDENTIAL: z.preprocess(unset, z.string().optional()),
  RATE_PER_SECOND: z.preprocess(unset, z.coerce.number().positive().optional()),
  CONCURRENCY: count(4),
  TIMEOUT_MS: count(10_000),
  MAX_ATTEMPTS: count(5),
};
const marketplaceEnv = z.object(envShape);
const sandboxEnv = z.preprocess(unset, z.string().url().optional());

/** The env var a setting is read from. */
function envName(id: MarketplaceId, key: keyof typeof envShape): string {
  const entry = marketplaceRegistry[id];
  return key === 'CREDENTIAL' ? entry.credentialEnv : `${entry.envPrefix}_${key}`;
}

/**
 * Reads every marketplace's settings. A marketplace without a key talks to the sandbox: its own
 * <PREFIX>_BASE_URL if set, else `sandboxUrl` (the in-process sandbox), else SANDBOX_URL.
 * Throws one ConfigError listing every problem.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env, opts: { sandboxUrl?: string } = {}): MarketplaceSettingsMap {
  const problems: string[] = [];
  const sandbox = sandboxEnv.safeParse(env.SANDBOX_URL);
  if (!sandbox.success) problems.push('  - SANDBOX_URL: must be a URL');
  const sandboxUrl = opts.sandboxUrl ?? (sandbox.success ? sandbox.data : undefined);
  const settings: Partial<MarketplaceSettingsMap> = {};
  for (const id of MARKETPLACE_IDS) {
    const raw = Object.fromEntries(Object.keys(envShape).map((k) => [k, env[envName(id, k as keyof typeof envShape)]]));
    const parsed = marketplaceEnv.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`  - ${envName(id, issue.path[0] as keyof typeof envShape)}: ${issue.message}`);
      continue;
    }
    const v = parsed.data;
    const entry: MarketplaceEntry = marketplaceRegistry[id];
    const baseUrl = v.BASE_URL ?? (v.CREDENTIAL ? entry.productionBaseUrl : sandboxUrl && sandboxBaseUrl(sandboxUrl, id));
    if (!baseUrl) {
      problems.push(
        `  - ${envName(id, 'CREDENTIAL')}: not set, and no sandbox to use instead: set ${envName(id, 'BASE_URL')} or SANDBOX_URL (see \`npm run sandbox\`)`,
      );
      continue;
    }
    settings[id] = {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      credential: v.CREDENTIAL,
      ratePerSecond: v.RATE_PER_SECOND ?? entry.defaultRatePerSecond,
      concurrency: v.CONCURRENCY,
      timeoutMs: v.TIMEOUT_MS,
      maxAttempts: v.MAX_ATTEMPTS,
    };
  }
  if (problems.length) throw new ConfigError(`Invalid marketplace configuration:\n${problems.join('\n')}`);
  return settings as MarketplaceSettingsMap;
}

/** Marketplaces without a key: their prices come from the sandbox (or whatever BASE_URL points at). */
export function simulatedMarketplaces(settings: MarketplaceSettingsMap): MarketplaceId[] {
  return MARKETPLACE_IDS.filter((id) => !settings[id].credential);
}

/** True when every marketplace has a key, i.e. no price on screen is simulated. */
export function hasRealCredentials(settings: MarketplaceSettingsMap): boolean {
  return simulatedMarketplaces(settings).length === 0;
}

/** True when some marketplace has neither a key nor its own base URL, so a sandbox must be running. */
export function needsSandbox(env: NodeJS.ProcessEnv = process.env): boolean {
  return MARKETPLACE_IDS.some((id) => !unset(env[envName(id, 'CREDENTIAL')]) && !unset(env[envName(id, 'BASE_URL')]));
}
