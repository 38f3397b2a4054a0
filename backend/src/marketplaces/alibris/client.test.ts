import { describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, useFixtureClient } from '../http-contract.ts';
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

describeHttpContract('Alibris', createAlibrisAdapter, {
  offers: fixture('offers.json'),
  malformed: fixture('malformed.json'),
  contentType: json['content-type'],
});
