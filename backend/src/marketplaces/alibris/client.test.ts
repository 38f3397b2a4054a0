import { describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, useFixtureClient } from '../../../test/helpers/http-contract.ts';
import { createAlibrisAdapter } from './client.ts';

const fixture = readFixture(import.meta.url);

describe('Alibris client', () => {
  const { lookupAnswering, requestSentFor } = useFixtureClient(createAlibrisAdapter, '9780486229874');

  it('searches by qisbn for JSON sorted by price, with the key in apikey', async () => {
    const { path, query } = await requestSentFor(fixture('no-offers.json'));
    expect(path).toBe('/v1/public/search');
    expect(query).toEqual({
      qisbn: '9780486229874',
      outputtype: 'json',
      qsort: 'p',
      chunk: '25',
      apikey: 'test-key',
    });
  });

  it('several books: the cheapest becomes the record, prices as numbers', async () => {
    expect(await lookupAnswering(fixture('offers.json'))).toEqual({
      kind: 'completed',
      record: {
        title: 'Art Forms in Nature',
        author: 'Haeckel, Ernst',
        sellername: 'Bookhaus',
        condition: 'Fine. Like new.',
        price: 5.99,
        sellercountry: 'DEU',
      },
      offers: [
        expect.objectContaining({ bin: '10284207844' }),
        expect.objectContaining({ bin: '10284207845' }),
        expect.objectContaining({ bin: '10284207846' }),
      ],
    });
  });

  it('one book, as a list or as a lone object', async () => {
    const one = fixture('one-offer.json');
    const lone = JSON.stringify({ ...JSON.parse(one), book: JSON.parse(one).book[0] });
    for (const body of [one, lone]) {
      const outcome = await lookupAnswering(body);
      expect(outcome).toMatchObject({ kind: 'completed', record: { sellername: 'Pico Books', price: 8.4 } });
      expect(outcome.kind === 'completed' && outcome.offers).toHaveLength(1);
    }
  });

  it('an empty or absent book list means no offers', async () => {
    for (const body of [fixture('no-offers.json'), '{"status":"0","message":"Success"}']) {
      expect(await lookupAnswering(body)).toEqual({ kind: 'no_offers', offers: [] });
    }
  });

  it('Errors.ErrorText is the failure message', async () => {
    expect(await lookupAnswering(fixture('error.json'))).toEqual({ kind: 'failed', message: 'Invalid ISBN: 97804862' });
  });

  it('a non-zero status carries its message', async () => {
    expect(await lookupAnswering('{"status":"3","message":"Developer Over Qps"}')).toEqual({
      kind: 'failed',
      message: 'Developer Over Qps',
    });
  });
});

describe('Alibris client: Mashery gateway answers', () => {
  const { lookupAnswering } = useFixtureClient(createAlibrisAdapter, '9780486229874', 'text/xml');
  /** Mashery's 403: its error code in a header, and a body naming the trouble. */
  const lookupRefusedBy = (code: string, extra: Record<string, string> = {}) =>
    lookupAnswering('<h1>Developer Inactive</h1>'.replace('Inactive', code.includes('QPS') ? 'Over Qps' : 'Inactive'), {
      status: 403,
      headers: { server: 'Mashery Proxy', 'x-mashery-error-code': code, ...extra },
    });

  it.each([
    {
      name: 'over the per-second limit is "slow down": retried with backoff, not a rejected key',
      code: 'ERR_403_DEVELOPER_OVER_QPS',
      outcome: { kind: 'retry', reason: 'Alibris: over the queries-per-second limit (ERR_403_DEVELOPER_OVER_QPS)', rateLimited: true },
    },
    {
      name: 'an inactive key is final, with a readable message',
      code: 'ERR_403_DEVELOPER_INACTIVE',
      outcome: { kind: 'failed', message: 'Alibris: the API key is inactive (ERR_403_DEVELOPER_INACTIVE)' },
    },
    {
      name: 'an unknown Mashery code is final and names the code',
      code: 'ERR_403_SOMETHING_NEW',
      outcome: { kind: 'failed', message: 'Alibris refused the request (ERR_403_SOMETHING_NEW, HTTP 403)' },
    },
  ])('$name', async ({ code, outcome }) => {
    expect(await lookupRefusedBy(code)).toEqual(outcome);
  });

  it('over the daily quota waits (Retry-After when sent, else 15 minutes)', async () => {
    expect(await lookupRefusedBy('ERR_403_DEVELOPER_OVER_RATE')).toMatchObject({ kind: 'retry', retryAfterMs: 15 * 60_000 });
    expect(await lookupRefusedBy('ERR_403_DEVELOPER_OVER_RATE', { 'retry-after': '120' })).toMatchObject({
      kind: 'retry',
      retryAfterMs: 120_000,
    });
  });

  it('a Mashery body without the header is still read', async () => {
    expect(await lookupAnswering('<h1>Developer Over Qps</h1>', { status: 403 })).toMatchObject({ kind: 'retry' });
  });
});

describeHttpContract('Alibris', createAlibrisAdapter, {
  offers: fixture('offers.json'),
  malformed: fixture('malformed.json'),
  contentType: 'application/json',
});
