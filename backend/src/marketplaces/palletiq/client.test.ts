import { describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, useFixtureClient } from '../http-contract.ts';
import { createPalletIqAdapter } from './client.ts';

const fixture = readFixture(import.meta.url);
const json = { 'content-type': 'application/json' };

describe('PalletIQ client (assumed contract)', () => {
  const client = useFixtureClient(createPalletIqAdapter, '9780486229874');
  const lookup = () => client.lookup();

  it('asks /v1/evaluate by ISBN with a bearer token', async () => {
    client.server.reply({ headers: json, body: fixture('no-offers.json') });
    await lookup();
    const { url, headers } = client.server.requests.at(-1)!;
    expect(url.pathname).toBe('/v1/evaluate');
    expect(Object.fromEntries(url.searchParams)).toEqual({ isbn: '9780486229874' });
    expect(headers.authorization).toBe('Bearer test-key');
  });

  it('the one evaluation fills the flattened winner columns', async () => {
    client.server.reply({ headers: json, body: fixture('evaluation.json') });
    expect(await lookup()).toEqual({
      kind: 'completed',
      record: { winner_amazon_log_data_mp_decision: 'SELL_FBA', winner_amazon_log_data_mm_val: 4.37 },
      offers: [JSON.parse(fixture('evaluation.json'))],
    });
  });

  it('winner null means nothing to evaluate: no offers', async () => {
    client.server.reply({ headers: json, body: fixture('no-offers.json') });
    expect(await lookup()).toEqual({ kind: 'no_offers', offers: [] });
  });

  it('a top-level error is the failure message', async () => {
    client.server.reply({ status: 422, headers: json, body: fixture('error.json') });
    expect(await lookup()).toEqual({ kind: 'failed', message: 'isbn must be 10 or 13 digits' });
  });

  it('a winner without amazon.log_data is malformed', async () => {
    client.server.reply({ headers: json, body: '{"isbn":"9780486229874","winner":{"ebay":{}}}' });
    expect(await lookup()).toEqual({ kind: 'retry', reason: 'Malformed response: no winner.amazon.log_data' });
  });
});

describeHttpContract('PalletIQ', createPalletIqAdapter, {
  offers: fixture('evaluation.json'),
  malformed: fixture('malformed.json'),
  contentType: json['content-type'],
});
