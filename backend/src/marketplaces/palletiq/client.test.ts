import { describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, useFixtureClient } from '../../../test/helpers/http-contract.ts';
import { createPalletIqAdapter } from './client.ts';

const fixture = readFixture(import.meta.url);
const json = { 'content-type': 'application/json' };
const meta = {
  title: 'Dover Pictorial Archive: Art Forms in Nature',
  asin: '0486229874',
  image_url: 'https://images.example.test/0486229874.jpg',
  weight: 612.35,
};

describe("PalletIQ client (the public widget's contract)", () => {
  const client = useFixtureClient(createPalletIqAdapter, '9780486229874');
  const lookup = () => client.lookup();

  it('asks /v1/isbn/{isbn}/0 with the key as the token query parameter, no auth header', async () => {
    client.server.reply({ headers: json, body: fixture('status-failed.json') });
    await lookup();
    const { url, headers } = client.server.requests.at(-1)!;
    expect(url.pathname).toBe('/v1/isbn/9780486229874/0');
    expect(Object.fromEntries(url.searchParams)).toEqual({ token: 'test-key' });
    expect(headers.authorization).toBeUndefined();
  });

  it('without a key (the sandbox) sends no token', async () => {
    client.server.reply({ headers: json, body: fixture('status-failed.json') });
    await client.lookup({ credential: undefined });
    expect(client.server.requests.at(-1)!.url.search).toBe('');
  });

  it('an evaluation fills every column it carries: winner.amazonLogData.* and meta.*', async () => {
    client.server.reply({ headers: json, body: fixture('evaluation-word-decision.json') });
    expect(await lookup()).toEqual({
      kind: 'completed',
      record: {
        winner_amazon_log_data_mp_decision: 'accept',
        winner_amazon_log_data_mm_val: 6.12,
        fba_decision: 'true',
        ...meta,
      },
      offers: [JSON.parse(fixture('evaluation-word-decision.json'))],
    });
  });

  it('accepts a boolean decision and a numeric string value', async () => {
    client.server.reply({ headers: json, body: fixture('evaluation-boolean-decision.json') });
    const outcome = await lookup();
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({
      winner_amazon_log_data_mp_decision: 'false',
      winner_amazon_log_data_mm_val: -1.75,
      fba_decision: 'false',
    });
  });

  it('an answer with only the keys public code reads still completes, the rest left empty', async () => {
    client.server.reply({ headers: json, body: fixture('evidenced-keys-only.json') });
    expect(await lookup()).toMatchObject({
      kind: 'completed',
      record: { winner_amazon_log_data_mp_decision: null, winner_amazon_log_data_mm_val: null, fba_decision: 'true', ...meta },
    });
  });

  it('status "failed" is final: no offers, not a retry', async () => {
    client.server.reply({ headers: json, body: fixture('status-failed.json') });
    expect(await lookup()).toEqual({ kind: 'no_offers', offers: [] });
  });

  it('a top-level error is the failure message', async () => {
    client.server.reply({ status: 422, headers: json, body: fixture('error.json') });
    expect(await lookup()).toEqual({ kind: 'failed', message: 'isbn must be 10 or 13 digits' });
  });

  it('an answer without winner.amazonLogData is malformed and retried', async () => {
    client.server.reply({ headers: json, body: '{"meta":{"title":"x"},"winner":{"amazon":{}}}' });
    expect(await lookup()).toEqual({ kind: 'retry', reason: 'Malformed response: no winner.amazonLogData' });
  });
});

describeHttpContract('PalletIQ', createPalletIqAdapter, {
  offers: fixture('evaluation-word-decision.json'),
  malformed: fixture('malformed.json'),
  contentType: json['content-type'],
});
