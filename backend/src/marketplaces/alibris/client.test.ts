import { describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, useFixtureClient } from '../../../test/helpers/http-contract.ts';
import { createAlibrisAdapter } from './client.ts';

const fixture = readFixture(import.meta.url);
const json = { 'content-type': 'application/json' };

describe('Alibris client', () => {
  const client = useFixtureClient(createAlibrisAdapter, '9780486229874');
  const lookup = () => client.lookup();

  it('searches by qisbn for JSON sorted by price, with the key in apikey', async () => {
    client.server.reply({ headers: json, body: fixture('no-offers.json') });
    await lookup();
    const { url } = client.server.requests.at(-1)!;
    expect(url.pathname).toBe('/v1/public/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      qisbn: '9780486229874',
      outputtype: 'json',
      qsort: 'p',
      chunk: '25',
      apikey: 'test-key',
    });
  });

  it('several books: the cheapest becomes the record, prices as numbers', async () => {
    client.server.reply({ headers: json, body: fixture('offers.json') });
    expect(await lookup()).toEqual({
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
      client.server.reply({ headers: json, body });
      const outcome = await lookup();
      expect(outcome).toMatchObject({ kind: 'completed', record: { sellername: 'Pico Books', price: 8.4 } });
      expect(outcome.kind === 'completed' && outcome.offers).toHaveLength(1);
    }
  });

  it('an empty or absent book list means no offers', async () => {
    for (const body of [fixture('no-offers.json'), '{"status":"0","message":"Success"}']) {
      client.server.reply({ headers: json, body });
      expect(await lookup()).toEqual({ kind: 'no_offers', offers: [] });
    }
  });

  it('Errors.ErrorText is the failure message', async () => {
    client.server.reply({ headers: json, body: fixture('error.json') });
    expect(await lookup()).toEqual({ kind: 'failed', message: 'Invalid ISBN: 97804862' });
  });

  it('a non-zero status carries its message', async () => {
    client.server.reply({ headers: json, body: '{"status":"3","message":"Developer Over Qps"}' });
    expect(await lookup()).toEqual({ kind: 'failed', message: 'Developer Over Qps' });
  });
});

describe('Alibris client: Mashery gateway answers', () => {
  const client = useFixtureClient(createAlibrisAdapter, '9780486229874');
  const mashery = (code: string, extra: Record<string, string> = {}) =>
    client.server.reply({
      status: 403,
      headers: { 'content-type': 'text/xml', server: 'Mashery Proxy', 'x-mashery-error-code': code, ...extra },
      body: '<h1>Developer Inactive</h1>'.replace('Inactive', code.includes('QPS') ? 'Over Qps' : 'Inactive'),
    });

  it('over the per-second limit is "slow down": retried with backoff, not a rejected key', async () => {
    mashery('ERR_403_DEVELOPER_OVER_QPS');
    expect(await client.lookup()).toEqual({
      kind: 'retry',
      reason: 'Alibris: over the queries-per-second limit (ERR_403_DEVELOPER_OVER_QPS)',
    });
  });

  it('over the daily quota waits (Retry-After when sent, else 15 minutes)', async () => {
    mashery('ERR_403_DEVELOPER_OVER_RATE');
    expect(await client.lookup()).toMatchObject({ kind: 'retry', retryAfterMs: 15 * 60_000 });
    mashery('ERR_403_DEVELOPER_OVER_RATE', { 'retry-after': '120' });
    expect(await client.lookup()).toMatchObject({ kind: 'retry', retryAfterMs: 120_000 });
  });

  it('an inactive key is final, with a readable message', async () => {
    mashery('ERR_403_DEVELOPER_INACTIVE');
    expect(await client.lookup()).toEqual({
      kind: 'failed',
      message: 'Alibris: the API key is inactive (ERR_403_DEVELOPER_INACTIVE)',
    });
  });

  it('a Mashery body without the header is still read', async () => {
    client.server.reply({ status: 403, headers: { 'content-type': 'text/xml' }, body: '<h1>Developer Over Qps</h1>' });
    expect(await client.lookup()).toMatchObject({ kind: 'retry' });
  });

  it('an unknown Mashery code is final and names the code', async () => {
    mashery('ERR_403_SOMETHING_NEW');
    expect(await client.lookup()).toEqual({ kind: 'failed', message: 'Alibris refused the request (ERR_403_SOMETHING_NEW, HTTP 403)' });
  });
});

describeHttpContract('Alibris', createAlibrisAdapter, {
  offers: fixture('offers.json'),
  malformed: fixture('malformed.json'),
  contentType: json['content-type'],
});
