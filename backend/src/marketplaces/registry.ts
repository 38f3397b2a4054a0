// The backend's half of the marketplace registry (the pure facts are @app/domain/marketplaces):
// per marketplace, its adapter and its sandbox format (its env names and parsing: see env.ts).
import { MARKETPLACE_IDS, byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';
import { createAbeBooksAdapter } from './abebooks/client.ts';
import { createAlibrisAdapter } from './alibris/client.ts';
import { createBiblioAdapter } from './biblio/client.ts';
import { createPalletIqAdapter } from './palletiq/client.ts';
import { AMAZON_BATCH_SIZE, AMAZON_ENV, AMAZON_OPERATIONS, createAmazonAdapter } from './amazon/client.ts';
import { EBAY_ENV, createEbayAdapter } from './ebay/client.ts';
import { abeBooksSim } from './abebooks/sandbox-format.ts';
import { alibrisSim } from './alibris/sandbox-format.ts';
import { biblioSim } from './biblio/sandbox-format.ts';
import { palletIqSim } from './palletiq/sandbox-format.ts';
import { amazonSim } from './amazon/sandbox-format.ts';
import { ebaySim } from './ebay/sandbox-format.ts';
import { normaliseAbeBooksOffer } from './abebooks/offers.ts';
import { normaliseAlibrisOffer } from './alibris/offers.ts';
import { normaliseAmazonOffer } from './amazon/offers.ts';
import { normaliseBiblioOffer } from './biblio/offers.ts';
import { normaliseEbayOffer } from './ebay/offers.ts';
import type { OfferNormaliser } from './offer-summary.ts';
import type { z } from 'zod';
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
  /**
   * ISBNs per request: the worker claims up to this many due lookups of the marketplace at once and
   * hands them to the adapter's `lookupBatch` (which must then exist). Absent: one ISBN per request.
   */
  batchSize?: number;
  /**
   * Operations with rates of their own (a batch may spend several): each is paced through its own
   * shared rate slot, <PREFIX>_<env>_RATE_PER_SECOND, and replaces <PREFIX>_RATE_PER_SECOND.
   */
  operations?: Record<string, { env: string; defaultRatePerSecond: number }>;
  /** Requests (batches) in flight per worker when <PREFIX>_CONCURRENCY is unset (default 4). */
  defaultConcurrency?: number;
  createAdapter(settings: MarketplaceSettings): MarketplaceAdapter;
  /** How the local sandbox speaks this marketplace's wire format. */
  simulator: SimulatedFormat;
  /** Reads one of its stored offers for a book's page (its folder's offers.ts); none: its answer is no offer list. */
  normaliseOffer?: OfferNormaliser;
  /** A daily call quota shared by every worker (<PREFIX>_DAILY_CALL_BUDGET overrides it); none when unset. */
  defaultDailyCallBudget?: number;
  /** The IANA time zone whose midnight starts the quota's day (worker/daily-budget.ts); UTC when unset. */
  quotaTimeZone?: string;
  /** Settings of its own beyond the key (a client secret, an auth URL), by env name: given to the adapter as `settings.extra`. */
  extraEnv?: Record<string, z.ZodType>;
}

export const marketplaceRegistry: Record<MarketplaceId, MarketplaceEntry> = {
  abe_books: {
    envPrefix: 'ABEBOOKS',
    credentialEnv: 'ABEBOOKS_CLIENT_KEY',
    productionBaseUrl: 'https://search2.abebooks.com',
    defaultRatePerSecond: 10, // no documented limit
    createAdapter: createAbeBooksAdapter,
    normaliseOffer: normaliseAbeBooksOffer,
    simulator: abeBooksSim,
  },
  biblio: {
    envPrefix: 'BIBLIO',
    credentialEnv: 'BIBLIO_API_KEY',
    productionBaseUrl: 'https://www.biblio.com',
    defaultRatePerSecond: 10, // no documented limit
    createAdapter: createBiblioAdapter,
    normaliseOffer: normaliseBiblioOffer,
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
    normaliseOffer: normaliseAlibrisOffer,
    simulator: alibrisSim,
  },
  pallet_iq: {
    envPrefix: 'PALLETIQ',
    credentialEnv: 'PALLETIQ_API_KEY',
    // The host public client code calls (docs/marketplaces/).
    productionBaseUrl: 'https://api.palletiq.com',
    defaultRatePerSecond: 10, // no documented limit
    createAdapter: createPalletIqAdapter,
    simulator: palletIqSim,
  },
  amazon: {
    envPrefix: 'AMAZON',
    // The seller's Login with Amazon refresh token; the app's client id and secret are extraEnv.
    credentialEnv: 'AMAZON_REFRESH_TOKEN',
    // North America, the host the Selling Partner API models declare.
    productionBaseUrl: 'https://sellingpartnerapi-na.amazon.com',
    // Not read: each operation has its rate (below); kept as the slowest, one batch per 10 s.
    defaultRatePerSecond: AMAZON_OPERATIONS.offers.defaultRatePerSecond,
    batchSize: AMAZON_BATCH_SIZE,
    operations: AMAZON_OPERATIONS,
    // One batch in flight (and one in hand) per worker: the offers slot (one batch per 10 s, shared)
    // is the limit, and claimed batches waiting longer for it than the lease would be claimed again.
    defaultConcurrency: 1,
    extraEnv: AMAZON_ENV,
    createAdapter: createAmazonAdapter,
    normaliseOffer: normaliseAmazonOffer,
    simulator: amazonSim,
  },
  ebay: {
    envPrefix: 'EBAY',
    // The application keyset's client id; EBAY_CLIENT_SECRET (extraEnv) completes it.
    credentialEnv: 'EBAY_CLIENT_ID',
    // Browse API and the OAuth token endpoint share this host (EBAY_AUTH_URL may move the latter).
    productionBaseUrl: 'https://api.ebay.com',
    // eBay publishes no per-second limit for Browse; the daily budget is the binding one.
    defaultRatePerSecond: 5,
    // Browse API default: 5,000 calls a day per application (eBay's API call limits page).
    defaultDailyCallBudget: 5000,
    // eBay resets the count at midnight US Pacific time (PST or PDT as the date has it).
    quotaTimeZone: 'America/Los_Angeles',
    extraEnv: EBAY_ENV,
    createAdapter: createEbayAdapter,
    normaliseOffer: normaliseEbayOffer,
    simulator: ebaySim,
  },
};

export type MarketplaceSettingsMap = Record<MarketplaceId, MarketplaceSettings>;

export function createAdapters(settings: MarketplaceSettingsMap): Record<MarketplaceId, MarketplaceAdapter> {
  return byMarketplace((m) => marketplaceRegistry[m.id].createAdapter(settings[m.id]));
}

/** Marketplaces without a key: their prices come from the sandbox (or whatever BASE_URL points at). */
export function simulatedMarketplaces(settings: MarketplaceSettingsMap): MarketplaceId[] {
  return MARKETPLACE_IDS.filter((id) => !settings[id].credential);
}

/** True when every marketplace has a key, i.e. no price on screen is simulated. */
export function hasRealCredentials(settings: MarketplaceSettingsMap): boolean {
  return simulatedMarketplaces(settings).length === 0;
}
