// The marketplaces' section of the configuration schema (see core/config.ts), built from the
// registry: each entry's env prefix and key variable name its settings, so adding a marketplace
// adds its settings here without another list to keep in step.
import { MARKETPLACE_IDS, type MarketplaceId } from '@app/domain/marketplaces';
import { z } from 'zod';
import { ConfigError, parseConfig, type ConfigRule } from '../core/config.ts';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../lib/capped-body.ts';
import { sandboxConfigSection } from '../sandbox/options.ts';
import { sandboxBaseUrl } from '../sandbox/urls.ts';
import { marketplaceRegistry, type MarketplaceEntry, type MarketplaceSettingsMap } from './registry.ts';

/** What the environment says about one marketplace, before a base URL is chosen. */
export interface MarketplaceEnv {
  baseUrl?: string;
  credential?: string;
  ratePerSecond: number;
  concurrency: number;
  timeoutMs: number;
  maxAttempts: number;
  operationRates?: Record<string, number>;
  dailyCallBudget?: number;
  maxResponseBytes: number;
  dailyReserve?: number;
  extra?: Record<string, unknown>;
}
export type MarketplacesConfig = Record<MarketplaceId, MarketplaceEnv>;

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** One cap for every marketplace's answers (and Open Library's): a body beyond it fails its lookup unread. */
export const MAX_RESPONSE_BYTES_ENV = 'MARKETPLACE_MAX_RESPONSE_BYTES';
export const maxResponseBytesSetting = z.coerce.number().int().min(1024).default(DEFAULT_MAX_RESPONSE_BYTES);

/** The variable each setting of a marketplace is read from. */
export function marketplaceEnvNames(id: MarketplaceId) {
  const entry: MarketplaceEntry = marketplaceRegistry[id];
  const p = entry.envPrefix;
  return {
    baseUrl: `${p}_BASE_URL`,
    credential: entry.credentialEnv,
    ratePerSecond: `${p}_RATE_PER_SECOND`,
    concurrency: `${p}_CONCURRENCY`,
    timeoutMs: `${p}_TIMEOUT_MS`,
    maxAttempts: `${p}_MAX_ATTEMPTS`,
    dailyCallBudget: `${p}_DAILY_CALL_BUDGET`,
    dailyReserve: `${p}_DAILY_RESERVE`,
  } satisfies Record<Exclude<keyof MarketplaceEnv, 'operationRates' | 'extra' | 'maxResponseBytes'>, string>;
}

/** The variable of each rate-limited operation of a marketplace (entry.operations), by operation. */
export function operationRateEnvNames(id: MarketplaceId): Record<string, string> {
  const entry: MarketplaceEntry = marketplaceRegistry[id];
  return Object.fromEntries(Object.entries(entry.operations ?? {}).map(([op, o]) => [op, `${entry.envPrefix}_${o.env}_RATE_PER_SECOND`]));
}

const rate = (fallback: number) => z.coerce.number().positive().default(fallback);

function marketplaceShape(id: MarketplaceId) {
  const n = marketplaceEnvNames(id);
  const entry: MarketplaceEntry = marketplaceRegistry[id];
  const opNames = operationRateEnvNames(id);
  return {
    [n.baseUrl]: z.url().optional(),
    [n.credential]: z.string().optional(),
    // A marketplace with operations is paced per operation instead.
    ...(entry.operations ? {} : { [n.ratePerSecond]: rate(entry.defaultRatePerSecond) }),
    ...Object.fromEntries(Object.entries(entry.operations ?? {}).map(([op, o]) => [opNames[op], rate(o.defaultRatePerSecond)])),
    [n.concurrency]: count(entry.defaultConcurrency ?? 4),
    [n.timeoutMs]: count(10_000),
    [n.maxAttempts]: count(5),
    // Only marketplaces with a daily quota read a budget; their own settings come from the entry.
    ...(entry.defaultDailyCallBudget === undefined
      ? {}
      : {
          [n.dailyCallBudget]: count(entry.defaultDailyCallBudget),
          // Calls of the day kept for interactive jobs (worker/interactive-jobs.ts); 0 keeps none,
          // unset keeps worker/daily-budget.ts's share of the budget.
          [n.dailyReserve]: z.coerce.number().int().min(0).optional(),
        }),
    ...entry.extraEnv,
  };
}

export const marketplacesConfigSection = z
  .object({
    ...(Object.assign({}, ...MARKETPLACE_IDS.map(marketplaceShape)) as ReturnType<typeof marketplaceShape>),
    [MAX_RESPONSE_BYTES_ENV]: maxResponseBytesSetting,
  })
  .transform((e) => {
    const read = (id: MarketplaceId): MarketplaceEnv => {
      const n = marketplaceEnvNames(id);
      const entry: MarketplaceEntry = marketplaceRegistry[id];
      const opNames = operationRateEnvNames(id);
      const operationRates = entry.operations
        ? Object.fromEntries(Object.keys(entry.operations).map((op) => [op, e[opNames[op] as string] as number]))
        : undefined;
      return {
        ...(operationRates ? { operationRates } : {}),
        // Paced per operation: the slowest operation bounds the requests (batches) per second.
        ratePerSecond: operationRates ? Math.min(...Object.values(operationRates)) : (e[n.ratePerSecond] as number),
        baseUrl: e[n.baseUrl] as string | undefined,
        credential: e[n.credential] as string | undefined,
        concurrency: e[n.concurrency] as number,
        timeoutMs: e[n.timeoutMs] as number,
        maxAttempts: e[n.maxAttempts] as number,
        maxResponseBytes: e[MAX_RESPONSE_BYTES_ENV] as number,
        ...(e[n.dailyCallBudget] === undefined
          ? {}
          : {
              dailyCallBudget: e[n.dailyCallBudget] as number,
              ...(e[n.dailyReserve] === undefined ? {} : { dailyReserve: e[n.dailyReserve] as number }),
            }),
        ...(entry.extraEnv ? { extra: Object.fromEntries(Object.keys(entry.extraEnv).map((k) => [k, e[k]])) } : {}),
      };
    };
    return Object.fromEntries(MARKETPLACE_IDS.map((id) => [id, read(id)])) as MarketplacesConfig;
  });

/** Marketplaces with neither a key nor their own base URL: they need a sandbox to talk to. */
export function marketplacesNeedingSandbox(config: MarketplacesConfig): MarketplaceId[] {
  return MARKETPLACE_IDS.filter((id) => !config[id].credential && !config[id].baseUrl);
}

type WithSandbox = { marketplaces: typeof marketplacesConfigSection; sandbox: typeof sandboxConfigSection };

/**
 * The rule that every marketplace can be reached: with a key, its own base URL, or a sandbox (one
 * the process starts itself when `startsOwn` says so, else SANDBOX_URL's). It reads the variables as
 * set, so a malformed setting elsewhere in the section does not hide a missing one.
 */
export function everyMarketplaceReachable(
  startsOwn: (env: Readonly<Record<string, string | undefined>>) => boolean,
): ConfigRule<WithSandbox> {
  return {
    reads: [],
    check(_config, problem, env) {
      if (startsOwn(env) || env.SANDBOX_URL) return;
      for (const id of MARKETPLACE_IDS) {
        const n = marketplaceEnvNames(id);
        if (env[n.credential] || env[n.baseUrl]) continue;
        problem(
          'marketplaces',
          n.credential,
          `not set, and no sandbox to use instead: set ${n.baseUrl} or SANDBOX_URL (see \`npm run sandbox\`)`,
        );
      }
    },
  };
}

/**
 * Each marketplace's settings. A marketplace without a key talks to the sandbox: its own
 * <PREFIX>_BASE_URL if set, else the sandbox at `sandboxUrl`. Throws one ConfigError listing every
 * marketplace left without a base URL (a bug: the process's rules should have refused it).
 */
export function marketplaceSettings(config: MarketplacesConfig, sandboxUrl: string | undefined): MarketplaceSettingsMap {
  // everyMarketplaceReachable has refused such an environment already; this guards other callers.
  const stranded: MarketplaceId[] = [];
  const settings = Object.fromEntries(
    MARKETPLACE_IDS.map((id) => {
      const { baseUrl, ...rest } = config[id];
      const url = baseUrl ?? (rest.credential ? marketplaceRegistry[id].productionBaseUrl : sandboxUrl && sandboxBaseUrl(sandboxUrl, id));
      if (!url) stranded.push(id);
      const batchSize = marketplaceRegistry[id].batchSize;
      return [id, { ...rest, ...(batchSize ? { batchSize } : {}), baseUrl: (url ?? '').replace(/\/+$/, '') }];
    }),
  ) as MarketplaceSettingsMap;
  if (stranded.length) throw new ConfigError(`No sandbox for ${stranded.join(', ')}: set their keys, base URLs or SANDBOX_URL`);
  return settings;
}

/**
 * Settings straight from an environment (tests, benchmarks): `sandboxUrl` is a sandbox the caller
 * started, else SANDBOX_URL. Parses the whole schema like every process does.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv, opts: { sandboxUrl?: string } = {}): MarketplaceSettingsMap {
  const rule = everyMarketplaceReachable(() => opts.sandboxUrl !== undefined);
  const parsed = parseConfig({ marketplaces: marketplacesConfigSection, sandbox: sandboxConfigSection }, env, [rule]);
  return marketplaceSettings(parsed.marketplaces, opts.sandboxUrl ?? parsed.sandbox.url);
}
