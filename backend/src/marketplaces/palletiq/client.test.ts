import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixture-server.ts';
import { describeHttpContract, testSettings } from '../http-contract.ts';
import { createPalletIqAdapter } from './client.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const json = { 'content-type': 'application/json' };

describe('PalletIQ client (assumed contract)', () => {
  let server: FixtureServer;
  const signal = new AbortController().signal;
  const lookup = () => createPalletIqAdapter(testSettings(server.url)).lookup('9780486229874', { signal });
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server.close());

  it('asks /v1/evaluate by ISBN with a bearer token', async () => {
    server.reply({ headers: json, body: fixture('no-offers.json') });
    await lookup();
    const { url, headers } = server.requests.at(-1)!;
    expect(url.pathname).toBe('/v1/evaluate');
    expect(Object.fromEntries(url.searchParams)).toEqual({ isbn: '9780486229874' });
    expect(headers.authorization).toBe('Bearer test-key');
  });

  it('the one evaluation fills the flattened winner columns', async () => {
    server.reply({ headers: json, body: fixture('evaluation.json') });
    expect(await lookup()).toEqual({
      kind: 'completed',
      record: { winner_amazon_log_data_mp_decision: 'SELL_FBA', winner_amazon_log_data_mm_val: 4.37 },
      offers: [JSON.parse(fixture('evaluation.json'))],
    });
  });

  it('winner null means nothing to evaluate: no offers', async () => {
    server.reply({ headers: json, body: fixture('no-offers.json') });
    expect(await lookup()).toEqual({ kind: 'no_offers', offers: [] });
  });

  it('a top-level error is the failure message', async () => {
    server.reply({ status: 422, headers: json, body: fixture('error.json') });
    expect(await lookup()).toEqual({ kind: 'failed', message: 'isbn must be 10 or 13 digits' });
  });

  it('a winner without amazon.log_data is malformed', async () => {
    server.reply({ headers: json, body: '{"isbn":"9780486229874","winner":{"ebay":{}}}' });
    expect(await lookup()).toEqual({ kind: 'retry', reason: 'Malformed response: no winner.amazon.log_data' });
  });
});

describeHttpContract('PalletIQ', createPalletIqAdapter, {
  offers: fixture('evaluation.json'),
  malformed: fixture('malformed.json'),
  contentType: json['content-type'],
});
