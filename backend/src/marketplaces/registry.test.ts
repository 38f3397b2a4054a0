import { MARKETPLACES } from '@app/domain/marketplaces';
import { biblioMapping } from './biblio/mapping.ts';
import { palletIqMapping } from './palletiq/mapping.ts';
import { amazonMapping } from './amazon/mapping.ts';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../core/config.ts';
import { marketplacesConfigSection, marketplacesNeedingSandbox, settingsFromEnv } from './env.ts';
import { createAdapters, hasRealCredentials, simulatedMarketplaces } from './registry.ts';

describe('marketplace settings from the environment', () => {
  it('without keys every marketplace points at the sandbox, with the defaults', () => {
    const settings = settingsFromEnv({}, { sandboxUrl: 'http://127.0.0.1:8090/' });
    expect(settings.abe_books).toEqual({
      baseUrl: 'http://127.0.0.1:8090/abe-books',
      credential: undefined,
      ratePerSecond: 10,
      concurrency: 4,
      timeoutMs: 10_000,
      maxAttempts: 5,
      maxResponseBytes: 16 * 1024 * 1024,
    });
    expect(settings.pallet_iq.baseUrl).toBe('http://127.0.0.1:8090/pallet-iq');
    expect(hasRealCredentials(settings)).toBe(false);
    expect(simulatedMarketplaces(settings)).toEqual(['abe_books', 'biblio', 'alibris', 'pallet_iq', 'amazon', 'ebay']);
  });

  it('eBay reads its daily budget and its own settings (secret, auth URL, marketplace id) beside the common ones', () => {
    const defaults = settingsFromEnv({}, { sandboxUrl: 'http://s' }).ebay;
    expect(defaults).toMatchObject({ baseUrl: 'http://s/ebay', ratePerSecond: 5, dailyCallBudget: 5000 });
    expect(defaults.extra).toEqual({
      EBAY_CLIENT_SECRET: undefined,
      EBAY_AUTH_URL: undefined,
      EBAY_MARKETPLACE_ID: 'EBAY_US',
      EBAY_DELIVERY_COUNTRY: 'US',
      EBAY_DELIVERY_POSTAL_CODE: undefined,
    });
    const set = settingsFromEnv(
      { EBAY_CLIENT_ID: 'id', EBAY_CLIENT_SECRET: 'secret', EBAY_DAILY_CALL_BUDGET: '1200', EBAY_MARKETPLACE_ID: 'EBAY_GB' },
      { sandboxUrl: 'http://s' },
    ).ebay;
    expect(set).toMatchObject({ baseUrl: 'https://api.ebay.com', credential: 'id', dailyCallBudget: 1200 });
    expect(set.extra).toMatchObject({ EBAY_CLIENT_SECRET: 'secret', EBAY_MARKETPLACE_ID: 'EBAY_GB' });
    // The reserve for interactive jobs: unset leaves worker/daily-budget.ts's default share; 0 keeps none.
    expect(defaults.dailyReserve).toBeUndefined();
    expect(settingsFromEnv({ EBAY_DAILY_RESERVE: '0' }, { sandboxUrl: 'http://s' }).ebay.dailyReserve).toBe(0);
    expect(settingsFromEnv({ EBAY_DAILY_RESERVE: '40' }, { sandboxUrl: 'http://s' }).ebay.dailyReserve).toBe(40);
    expect(() => settingsFromEnv({ EBAY_DAILY_RESERVE: '-1' }, { sandboxUrl: 'http://s' })).toThrow(/EBAY_DAILY_RESERVE/);
    // Other marketplaces have no daily quota.
    expect(settingsFromEnv({}, { sandboxUrl: 'http://s' }).biblio.dailyCallBudget).toBeUndefined();
    expect(() => settingsFromEnv({ EBAY_DAILY_CALL_BUDGET: '0', EBAY_MARKETPLACE_ID: 'us' }, { sandboxUrl: 'http://s' })).toThrow(
      /EBAY_DAILY_CALL_BUDGET[\s\S]*EBAY_MARKETPLACE_ID|EBAY_MARKETPLACE_ID[\s\S]*EBAY_DAILY_CALL_BUDGET/,
    );
    // The delivery location is checked like the others: a bad one is named, never sent.
    expect(() =>
      settingsFromEnv({ EBAY_DELIVERY_COUNTRY: 'usa', EBAY_DELIVERY_POSTAL_CODE: '19406;x' }, { sandboxUrl: 'http://s' }),
    ).toThrow(/EBAY_DELIVERY_COUNTRY[\s\S]*EBAY_DELIVERY_POSTAL_CODE/);
    expect(
      settingsFromEnv({ EBAY_DELIVERY_COUNTRY: 'GB', EBAY_DELIVERY_POSTAL_CODE: 'SW1A 1AA' }, { sandboxUrl: 'http://s' }).ebay.extra,
    ).toMatchObject({ EBAY_DELIVERY_COUNTRY: 'GB', EBAY_DELIVERY_POSTAL_CODE: 'SW1A 1AA' });
  });

  it('one cap for every answer: MARKETPLACE_MAX_RESPONSE_BYTES reaches each marketplace, and nonsense is refused', () => {
    const settings = settingsFromEnv({ MARKETPLACE_MAX_RESPONSE_BYTES: '2097152' }, { sandboxUrl: 'http://s' });
    for (const s of Object.values(settings)) expect(s.maxResponseBytes).toBe(2_097_152);
    expect(() => settingsFromEnv({ MARKETPLACE_MAX_RESPONSE_BYTES: 'lots' }, { sandboxUrl: 'http://s' })).toThrow(
      /MARKETPLACE_MAX_RESPONSE_BYTES/,
    );
  });

  it('a key selects the real service; per-marketplace limits are read; blanks count as unset', () => {
    const settings = settingsFromEnv({
      SANDBOX_URL: 'http://sandbox:8090',
      ABEBOOKS_CLIENT_KEY: 'abc',
      BIBLIO_API_KEY: 'k1',
      BIBLIO_BASE_URL: 'https://proxy.example/biblio/',
      BIBLIO_RATE_PER_SECOND: '2.5',
      ALIBRIS_CONCURRENCY: '16',
      ALIBRIS_TIMEOUT_MS: '',
      PALLETIQ_MAX_ATTEMPTS: '2',
    });
    expect(settings.abe_books).toMatchObject({ baseUrl: 'https://search2.abebooks.com', credential: 'abc' });
    expect(settings.biblio).toMatchObject({ baseUrl: 'https://proxy.example/biblio', ratePerSecond: 2.5 });
    expect(settings.alibris).toMatchObject({ baseUrl: 'http://sandbox:8090/alibris', concurrency: 16, timeoutMs: 10_000 });
    expect(settings.pallet_iq.maxAttempts).toBe(2);
    expect(simulatedMarketplaces(settings)).toEqual(['alibris', 'pallet_iq', 'amazon', 'ebay']);
    expect(Object.keys(createAdapters(settings))).toEqual(['abe_books', 'biblio', 'alibris', 'pallet_iq', 'amazon', 'ebay']);
  });

  it('Amazon: batches of 20, a rate per operation from the models (overridable), its LWA settings', () => {
    const amazon = settingsFromEnv({}, { sandboxUrl: 'http://s' }).amazon;
    expect(amazon).toMatchObject({
      baseUrl: 'http://s/amazon',
      batchSize: 20,
      concurrency: 1,
      operationRates: { catalog: 2, offers: 0.1 },
      ratePerSecond: 0.1,
      extra: { AMAZON_MARKETPLACE_ID: 'ATVPDKIKX0DER', AMAZON_CLIENT_ID: undefined },
    });
    const real = settingsFromEnv(
      { AMAZON_REFRESH_TOKEN: 'Atzr|x', AMAZON_CLIENT_ID: 'id', AMAZON_OFFERS_RATE_PER_SECOND: '0.5', AMAZON_CATALOG_RATE_PER_SECOND: '1' },
      { sandboxUrl: 'http://s' },
    ).amazon;
    expect(real).toMatchObject({
      baseUrl: 'https://sellingpartnerapi-na.amazon.com',
      credential: 'Atzr|x',
      operationRates: { catalog: 1, offers: 0.5 },
      extra: { AMAZON_CLIENT_ID: 'id' },
    });
    expect(() => settingsFromEnv({ AMAZON_OFFERS_RATE_PER_SECOND: 'slow' }, { sandboxUrl: 'http://s' })).toThrow(
      /AMAZON_OFFERS_RATE_PER_SECOND/,
    );
  });

  it('lists every problem at once', () => {
    const read = () => settingsFromEnv({ PALLETIQ_API_KEY: 'x', ALIBRIS_RATE_PER_SECOND: 'fast', BIBLIO_CONCURRENCY: '0' });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(/ABEBOOKS_CLIENT_KEY: not set, and no sandbox/);
    expect(read).toThrow(/BIBLIO_CONCURRENCY/);
    expect(read).toThrow(/ALIBRIS_RATE_PER_SECOND/);
  });

  it("a key without a base URL talks to the real service; Alibris defaults to its public plan's rate", () => {
    const settings = settingsFromEnv({ PALLETIQ_API_KEY: 'p', ALIBRIS_API_KEY: 'a' }, { sandboxUrl: 'http://sandbox:8090' });
    expect(settings.pallet_iq).toMatchObject({ baseUrl: 'https://api.palletiq.com', credential: 'p' });
    expect(settings.alibris).toMatchObject({ baseUrl: 'https://api.alibris.com', ratePerSecond: 2 });
    expect(settings.abe_books.ratePerSecond).toBe(10);
    expect(settingsFromEnv({ ALIBRIS_RATE_PER_SECOND: '0.5' }, { sandboxUrl: 'http://s' }).alibris.ratePerSecond).toBe(0.5);
  });

  it('knows when a sandbox is needed', () => {
    const needing = (env: NodeJS.ProcessEnv) =>
      marketplacesNeedingSandbox(parseConfig({ marketplaces: marketplacesConfigSection }, env).marketplaces);
    expect(needing({ BIBLIO_API_KEY: 'b' })).toEqual(['abe_books', 'alibris', 'pallet_iq', 'amazon', 'ebay']);
    const allSet = {
      ABEBOOKS_CLIENT_KEY: 'a',
      BIBLIO_API_KEY: 'b',
      ALIBRIS_BASE_URL: 'http://x',
      PALLETIQ_BASE_URL: 'http://y',
      AMAZON_REFRESH_TOKEN: 'r',
      EBAY_CLIENT_ID: 'e',
    };
    expect(needing(allSet)).toEqual([]);
  });
});

describe('field tables put what real answers carry first', () => {
  const rank = { CERTAIN: 0, INFERRED: 1, UNKNOWN: 2 } as const;
  it.each([
    ['biblio', biblioMapping],
    ['pallet_iq', palletIqMapping],
    ['amazon', amazonMapping],
  ] as const)('%s: the filter builder lists evidenced fields before assumed ones', (id, mapping) => {
    const evidence = new Map(mapping.entries.map((e) => [e.field, rank[e.evidence]]));
    const ranks = MARKETPLACES[id].fields.filter((f) => !f.column && evidence.has(f.name)).map((f) => evidence.get(f.name)!);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });
});
