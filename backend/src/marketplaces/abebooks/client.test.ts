import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeHttpContract, readFixture, useFixtureClient } from '../../../test/helpers/http-contract.ts';
import { createAbeBooksAdapter } from './client.ts';

const fixture = readFixture(import.meta.url);
const xml = 'text/xml; charset=utf-8';

describe('AbeBooks client', () => {
  const { lookupAnswering, requestSentFor } = useFixtureClient(createAbeBooksAdapter, '9780131457577', xml);

  it('asks Search Web Services for long output sorted by total price, with the client key', async () => {
    const { path, query } = await requestSentFor(fixture('no-offers.xml'));
    expect(path).toBe('/search');
    expect(query).toEqual({
      isbn: '9780131457577',
      outputsize: 'long',
      sortorder: '17',
      maxresults: '50',
      currency: 'USD',
      destinationcountry: 'USA',
      clientkey: 'test-key',
    });
  });

  it('several listings: the cheapest by total price becomes the record, all are kept', async () => {
    const outcome = await lookupAnswering(fixture('offers.xml'));
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    expect(outcome.record).toMatchObject({
      listing_url: 'https://www.abebooks.com/servlet/ListingDetails?bi=30598765432&cm_ven=sws',
      total_listing_price: 13.49,
      listing_price: 9.99,
      vendor_id: '0072211',
      vendor_name: 'Second Chapter Books',
    });
    expect(outcome.offers).toHaveLength(3);
    expect(outcome.offers[0]).toMatchObject({ bookId: '30512345678', isbn10: '0131457578' });
  });

  it('one listing is still a list, mapped to every column', async () => {
    const outcome = await lookupAnswering(fixture('one-offer.xml'));
    expect(outcome).toEqual({
      kind: 'completed',
      record: {
        listing_url: 'https://www.abebooks.com/servlet/ListingDetails?bi=30512345678&cm_ven=sws&cm_cat=sws&cm_pla=sws&cm_ite=30512345678',
        listing_price: 14.5,
        total_listing_price: 18.5,
        quantity: 1,
        listing_condition: 'NOT NEW BOOK',
        item_condition: 'Very Good',
        seller_rating: 4,
        vendor_price: 11.2,
        vendor_id: '1460329',
        title: 'Marketing Management',
        author: 'Kotler, Philip',
        vendor_name: 'Example Books Ltd',
      },
      offers: [expect.objectContaining({ bookId: '30512345678' })],
    });
  });

  it('resultCount 0 without <Book> means no offers', async () => {
    expect(await lookupAnswering(fixture('no-offers.xml'))).toEqual({ kind: 'no_offers', offers: [] });
  });

  it('a <messages> element is the failure message, on 200 or 400', async () => {
    for (const status of [200, 400]) {
      expect(await lookupAnswering(fixture('error.xml'), { status })).toEqual({
        kind: 'failed',
        message: 'Invalid ISBN value provided: 978-0-13',
      });
    }
  });

  it('decodes an answer declared ISO-8859-1 in its XML declaration (no charset in the header)', async () => {
    const latin1 = readFileSync(new URL('./fixtures/latin1-declared.xml', import.meta.url));
    const outcome = await lookupAnswering(latin1, { headers: { 'content-type': 'text/xml' } });
    expect(outcome.kind === 'completed' && outcome.record.vendor_name).toBe('Bücherstube Müller à Genève');
  });

  it('a charset in the Content-Type wins over a missing declaration', async () => {
    const body = Buffer.from(fixture('one-offer.xml').replace('Example Books Ltd', 'Libraría Peñón'), 'latin1');
    const outcome = await lookupAnswering(body, { headers: { 'content-type': 'text/xml; charset=ISO-8859-1' } });
    expect(outcome.kind === 'completed' && outcome.record.vendor_name).toBe('Libraría Peñón');
  });

  it('decodes numeric character references', async () => {
    const outcome = await lookupAnswering(fixture('numeric-char-refs.xml'));
    expect(outcome.kind === 'completed' && outcome.record.vendor_name).toBe('Librairé Dupont & Fils');
  });

  it('an error message with a raw & is the marketplace speaking: failed, not a retry', async () => {
    expect(await lookupAnswering(fixture('error-raw-ampersand.xml'))).toEqual({
      kind: 'failed',
      message: 'Words such as "a", "&", "of" are not searched. Please enter some other words and try again.',
    });
  });

  it('sends no client key when it has none (the sandbox)', async () => {
    const { query } = await requestSentFor(fixture('no-offers.xml'), { credential: undefined });
    expect(query).not.toHaveProperty('clientkey');
  });
});

describeHttpContract('AbeBooks', createAbeBooksAdapter, {
  offers: fixture('offers.xml'),
  malformed: fixture('malformed.xml'),
  contentType: xml,
});
