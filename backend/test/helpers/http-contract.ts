// Test support: the HTTP-level cases every client must classify the same way
// (credentials rejected, rate limited, outage, timeout, unreachable, garbled body).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '@app/domain/must';
import { startFixtureServer, type FixtureServer, type Reply, type SeenRequest } from './fixture-server.ts';
import type { LookupOutcome, MarketplaceAdapter, MarketplaceSettings } from '../../src/marketplaces/types.ts';

export const testSettings = (baseUrl: string, over: Partial<MarketplaceSettings> = {}): MarketplaceSettings => ({
  baseUrl,
  credential: 'test-key',
  ratePerSecond: 100,
  concurrency: 4,
  timeoutMs: 2000,
  maxAttempts: 3,
  ...over,
});

/** Reads `./fixtures/<name>` next to the test file whose import.meta.url is given. */
export const readFixture = (testUrl: string) => (name: string) => readFileSync(new URL(`./fixtures/${name}`, testUrl), 'utf8');

/** What a client test checks of the request the adapter sent. */
export interface SentRequest {
  path: string;
  query: Record<string, string>;
  headers: SeenRequest['headers'];
}

/**
 * A fixture server for the enclosing describe, and lookups of `isbn` through a fresh adapter.
 * `contentType` is what the marketplace labels its answers with (a reply may override it).
 */
export function useFixtureClient(
  create: (settings: MarketplaceSettings) => MarketplaceAdapter,
  isbn: string,
  contentType = 'application/json',
) {
  let server: FixtureServer;
  const signal = new AbortController().signal;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server.close());
  const lookup = (over: Partial<MarketplaceSettings> = {}) => create(testSettings(server.url, over)).lookup(isbn, { signal });
  /** Serves `body` (200 unless `reply` says otherwise) and looks the ISBN up: the outcome the adapter read from it. */
  const lookupAnswering = (body: string | Buffer, reply: Omit<Reply, 'body'> = {}, settings: Partial<MarketplaceSettings> = {}) => {
    server.reply({ ...reply, headers: { 'content-type': contentType, ...reply.headers }, body });
    return lookup(settings);
  };
  return {
    get server() {
      return server;
    },
    lookup,
    lookupAnswering,
    /** The request a lookup answered by `body` sent: path, query parameters and headers. */
    async requestSentFor(body: string | Buffer, settings: Partial<MarketplaceSettings> = {}): Promise<SentRequest> {
      await lookupAnswering(body, {}, settings);
      const { url, headers } = must(server.requests.at(-1), 'the lookup sent a request');
      return { path: url.pathname, query: Object.fromEntries(url.searchParams), headers };
    },
  };
}

export function describeHttpContract(
  name: string,
  create: (settings: MarketplaceSettings) => MarketplaceAdapter,
  bodies: {
    offers: string;
    malformed: string;
    contentType: string;
    /** What a 401 means when not the shared "credentials rejected" (eBay: its token was refused, ask again with a new one). */
    on401?: (body: string) => LookupOutcome;
  },
): void {
  describe(`${name}: HTTP classification`, () => {
    const client = useFixtureClient(create, '9780131457577', bodies.contentType);
    const lookup = () => client.lookup({ timeoutMs: 300 });
    const signal = new AbortController().signal;

    it.each([401, 403])('HTTP %i means the key is wrong: failed', async (status) => {
      client.server.reply({ status, body: 'nope' });
      const expected: LookupOutcome =
        status === 401 && bodies.on401
          ? bodies.on401('nope')
          : { kind: 'failed', message: `Marketplace rejected the credentials (${status})` };
      expect(await lookup()).toEqual(expected);
    });

    it('429 retries after Retry-After seconds', async () => {
      client.server.reply({ status: 429, headers: { 'retry-after': '7' }, body: '' });
      expect(await lookup()).toEqual({ kind: 'retry', reason: 'Rate limited (429)', retryAfterMs: 7000, rateLimited: true });
    });

    it('429 retries after a Retry-After HTTP date', async () => {
      const at = new Date(Date.now() + 30_000).toUTCString();
      client.server.reply({ status: 429, headers: { 'retry-after': at }, body: '' });
      const outcome = await lookup();
      expect(outcome.kind).toBe('retry');
      const ms = outcome.kind === 'retry' ? outcome.retryAfterMs : undefined;
      expect(ms).toBeGreaterThan(27_000);
      expect(ms).toBeLessThanOrEqual(30_000);
    });

    it('503 retries, even with an offers body', async () => {
      client.server.reply({ status: 503, body: bodies.offers });
      expect(await lookup()).toEqual({ kind: 'retry', reason: 'Marketplace unavailable (503)' });
    });

    it('a malformed 200 body retries', async () => {
      const outcome = await client.lookupAnswering(bodies.malformed, {}, { timeoutMs: 300 });
      expect(outcome.kind).toBe('retry');
      expect(outcome.kind === 'retry' && outcome.reason).toMatch(/^Malformed response/);
    });

    it('an unknown 4xx without a message fails with the status', async () => {
      client.server.reply({ status: 404, body: '<html>Not Found</html>' });
      expect(await lookup()).toEqual({ kind: 'failed', message: 'Marketplace answered HTTP 404' });
    });

    it('a marketplace that never answers times out and retries', async () => {
      client.server.reply({ hang: true });
      const started = Date.now();
      expect(await lookup()).toEqual({ kind: 'retry', reason: 'Timed out after 300 ms' });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('the caller cancelling ends the call at once', async () => {
      client.server.reply({ hang: true });
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 20);
      const adapter = create(testSettings(client.server.url, { timeoutMs: 300 }));
      expect(await adapter.lookup('9780131457577', { signal: stop.signal })).toEqual({
        kind: 'retry',
        reason: 'Cancelled: the worker is stopping',
      });
    });

    it('an unreachable marketplace retries', async () => {
      const closed = await startFixtureServer();
      await closed.close();
      const outcome = await create(testSettings(closed.url)).lookup('9780131457577', { signal });
      expect(outcome).toEqual({ kind: 'retry', reason: 'Network error: ECONNREFUSED' });
    });
  });
}
