import { describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, useFixtureClient } from '../../../test/helpers/http-contract.ts';
import { createPalletIqAdapter } from './client.ts';

const fixture = readFixture(import.meta.url);
const meta = {
  title: 'Dover Pictorial Archive: Art Forms in Nature',
  asin: '0486229874',
  image_url: 'https://images.example.test/0486229874.jpg',
  weight: 612.35,
};

describe("PalletIQ client (the public widget's contract)", () => {
  const { lookupAnswering, requestSentFor } = useFixtureClient(createPalletIqAdapter, '9780486229874');

  it('asks /v1/isbn/{isbn}/0 with the key as the token query parameter, no auth header', async () => {
    const { path, query, headers } = await requestSentFor(fixture('status-failed.json'));
    expect(path).toBe('/v1/isbn/9780486229874/0');
    expect(query).toEqual({ token: 'test-key' });
    expect(headers.authorization).toBeUndefined();
  });

  it('without a key (the sandbox) sends no token', async () => {
    const { query } = await requestSentFor(fixture('status-failed.json'), { credential: undefined });
    expect(query).toEqual({});
  });

  it('an evaluation fills every column it carries: winner.amazonLogData.* and meta.*', async () => {
    expect(await lookupAnswering(fixture('evaluation-word-decision.json'))).toEqual({
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
    const outcome = await lookupAnswering(fixture('evaluation-boolean-decision.json'));
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({
      winner_amazon_log_data_mp_decision: 'false',
      winner_amazon_log_data_mm_val: -1.75,
      fba_decision: 'false',
    });
  });

  it('an answer with only the keys public code reads still completes, the rest left empty', async () => {
    expect(await lookupAnswering(fixture('evidenced-keys-only.json'))).toMatchObject({
      kind: 'completed',
      record: { winner_amazon_log_data_mp_decision: null, winner_amazon_log_data_mm_val: null, fba_decision: 'true', ...meta },
    });
  });

  it('status "failed" is final: no offers, not a retry', async () => {
    expect(await lookupAnswering(fixture('status-failed.json'))).toEqual({ kind: 'no_offers', offers: [] });
  });

  it('a top-level error is the failure message', async () => {
    expect(await lookupAnswering(fixture('error.json'), { status: 422 })).toEqual({
      kind: 'failed',
      message: 'isbn must be 10 or 13 digits',
    });
  });

  it('an answer without winner.amazonLogData is malformed and retried', async () => {
    expect(await lookupAnswering('{"meta":{"title":"x"},"winner":{"amazon":{}}}')).toEqual({
      kind: 'retry',
      reason: 'Malformed response: no winner.amazonLogData',
    });
  });
});

describeHttpContract('PalletIQ', createPalletIqAdapter, {
  offers: fixture('evaluation-word-decision.json'),
  malformed: fixture('malformed.json'),
  contentType: 'application/json',
});
