import { MARKETPLACES, dataFields } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, useFixtureClient } from '../../../test/helpers/http-contract.ts';
import { createBiblioAdapter } from './client.ts';

const fixture = readFixture(import.meta.url);

describe('Biblio client', () => {
  const { lookupAnswering, requestSentFor } = useFixtureClient(createBiblioAdapter, '9780316769488');

  it('calls product_search by ISBN in USD, shipped to the USA, cheapest first, key in X-API-KEY', async () => {
    const { path, query, headers } = await requestSentFor(fixture('no-offers.json'));
    expect(path).toBe('/api/product_search');
    expect(query).toEqual({
      isbn: '9780316769488',
      currency: 'USD',
      ship_to_country: 'USA',
      sort_field: 'price',
      sort_direction: 'asc',
      results_per_page: '50',
    });
    expect(headers['x-api-key']).toBe('test-key');
  });

  it('several results: the cheapest fills all ~70 columns, book_link from canonical_book_link', async () => {
    const outcome = await lookupAnswering(fixture('offers.json'));
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    const columns = dataFields(MARKETPLACES.biblio).map((f) => f.name);
    expect(Object.keys(outcome.record).sort()).toEqual([...columns].sort());
    // Every column the fixture's cheapest result carries is filled, numbers as numbers.
    const empty = columns.filter((c) => outcome.record[c] === null);
    expect(empty).toEqual(['jacket_condition']);
    expect(outcome.record).toMatchObject({
      book_link: 'https://www.biblio.com/book/catcher-rye-salinger-j-d/d/1234567891',
      biblio_sku: '1234567891',
      price: 7.5,
      listing_orig_price: 9,
      ninety_day_fulfillment: 0.98,
      seller_rating: 4.8,
      first_edition: 'false',
      seller: 'Cheap Reads',
    });
    expect(outcome.offers).toHaveLength(3);
  });

  it('one result is mapped, missing keys left empty', async () => {
    const outcome = await lookupAnswering(fixture('one-offer.json'));
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    expect(outcome.record).toMatchObject({
      title: 'The Catcher in the Rye',
      subtitle: null,
      price: 7.5,
      numeric_condition: 4,
      seller_country: 'US',
      slug: 'catcher-rye-salinger-j-d',
      isbn13: null,
    });
    expect(outcome.offers).toHaveLength(1);
  });

  it('number_found 0 with no results means no offers', async () => {
    expect(await lookupAnswering(fixture('no-offers.json'))).toEqual({ kind: 'no_offers', offers: [] });
  });

  it.each(['no-offers-results-absent.json', 'no-offers-results-null.json'])(
    'number_found 0 with results left out or null (%s) means no offers, not a malformed answer',
    async (name) => {
      expect(await lookupAnswering(fixture(name))).toEqual({ kind: 'no_offers', offers: [] });
    },
  );

  it('an answer with only the publicly evidenced keys fills those columns, prices as text or numbers', async () => {
    const outcome = await lookupAnswering(fixture('evidenced-keys-mixed-currency.json'));
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({
      title: 'Marketing Management',
      author: 'Kotler, Philip',
      subtitle: 'Millennium Edition',
      publisher: 'Prentice Hall',
      photo: 'https://photos.example.test/2200000003.jpg',
      book_link: 'https://www.biblio.com/book/marketing-management-kotler-philip/d/2200000003',
    });
  });

  it('never compares prices across currencies: the cheaper GBP offer loses to the cheapest USD one', async () => {
    const outcome = await lookupAnswering(fixture('evidenced-keys-mixed-currency.json'));
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({ price: 6.25, currency: 'USD' });
    expect(outcome.kind === 'completed' && outcome.offers).toHaveLength(3);
  });

  it('headlines the cheapest delivered copy: $20.00 + $3.50 shipping beats $19.50 + $6.50', async () => {
    const outcome = await lookupAnswering(fixture('cheaper-delivered.json'));
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({ biblio_sku: '1002', price: 20, shipping_price: 3.5 });
  });

  it('with no offer in USD, the cheapest in one currency is kept with that currency', async () => {
    const outcome = await lookupAnswering(fixture('only-foreign-currency.json'));
    expect(outcome.kind === 'completed' && outcome.record).toMatchObject({ price: 8.4, currency: 'EUR' });
  });

  it('a top-level error is the failure message', async () => {
    expect(await lookupAnswering(fixture('error.json'))).toEqual({ kind: 'failed', message: 'Invalid value for parameter isbn: 97803' });
  });

  it('a JSON body without data.results is malformed', async () => {
    expect(await lookupAnswering('{"data":{"meta":{}}}')).toEqual({ kind: 'retry', reason: 'Malformed response: no data.results array' });
  });
});

describeHttpContract('Biblio', createBiblioAdapter, {
  offers: fixture('offers.json'),
  malformed: fixture('malformed.json'),
  contentType: 'application/json',
});
