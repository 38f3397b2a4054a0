import { describe, expect, it } from 'vitest';
import { parseServerDate } from './format';
import { chosenOfferIndex, offerCellText, offerHeader, offerKeys, offerLink, offerMoney } from './offers';
import { ACCEPT, hasUploadExtension } from './uploads';

describe('offers drawer table', () => {
  it('has a column for every key any offer has, price, shipping, condition and seller first', () => {
    expect(offerKeys([{ url: 'u', seller: 'a', price: 1 }, { title: 't', price: 2, condition: 'Good' }, {}])).toEqual([
      'price',
      'condition',
      'seller',
      'url',
      'title',
    ]);
    expect(
      offerKeys([{ listingUrl: 'x', totalListingPrice: '9', firstBookShipCost: '4', itemCondition: 'Fine', vendorName: 'v', bookId: '1' }]),
    ).toEqual(['totalListingPrice', 'firstBookShipCost', 'itemCondition', 'vendorName', 'listingUrl', 'bookId']);
    expect(offerKeys([])).toEqual([]);
  });
  it('shows nested values as JSON', () => {
    expect(offerCellText({ a: 1 })).toBe('{"a":1}');
    expect(offerCellText(3.5)).toBe('3.5');
    expect(offerCellText(false)).toBe('false');
  });
});

describe("a book page's offers", () => {
  it('links only to addresses', () => {
    expect(offerLink('listingUrl', { listingUrl: 'www.abebooks.com/servlet/x?y=1' })).toBe('www.abebooks.com/servlet/x?y=1');
    expect(offerLink('photo_url', { photo_url: 'not a link' })).toBeNull();
    expect(offerLink('seller', { seller: 'www.shop.com' })).toBeNull();
  });
});

describe('upload file types', () => {
  it('accepts .csv, .xlsx and .xls in any case', () => {
    expect(ACCEPT).toBe('.csv,.xlsx,.xls');
    for (const name of ['a.csv', 'B.XLSX', 'c.d.xls']) expect(hasUploadExtension(name)).toBe(true);
    for (const name of ['a.ods', 'xlsx', 'a.csv.zip', 'a.pdf']) expect(hasUploadExtension(name)).toBe(false);
  });
});

describe('server timestamps are UTC', () => {
  it('reads a zoned or zoneless timestamp as the same instant', () => {
    expect(parseServerDate('2025-01-02T03:04:05Z').toISOString()).toBe('2025-01-02T03:04:05.000Z');
    expect(parseServerDate('2025-01-02T03:04:05').toISOString()).toBe('2025-01-02T03:04:05.000Z');
    expect(parseServerDate('2025-01-02T05:04:05+02:00').toISOString()).toBe('2025-01-02T03:04:05.000Z');
  });
});

describe('offers drawer: headers, money and the chosen offer (issue 10)', () => {
  it('reads wire keys as headers', () => {
    expect(offerHeader('extraBookShipCost')).toBe('Extra Book Ship Cost');
    expect(offerHeader('listing_orig_price')).toBe('Listing Orig Price');
    expect(offerHeader('isbn13')).toBe('Isbn13');
  });
  it('formats amounts with the offer currency, USD otherwise', () => {
    expect(offerMoney('listingPrice', { listingPrice: '12.5', vendorCurrency: 'gbp' })).toEqual({ value: '12.5', currency: 'GBP' });
    expect(offerMoney('price', { price: 3 })).toEqual({ value: 3, currency: 'USD' });
    expect(offerMoney('seller', { seller: 'x' })).toBeNull();
    expect(offerMoney('price', { price: 'call' })).toBeNull();
    // eBay nests an amount with its own currency.
    expect(offerMoney('price', { price: { value: '20.50', currency: 'USD' } })).toEqual({ value: '20.50', currency: 'USD' });
    expect(offerMoney('seller', { seller: { value: '1', currency: 'USD' } })).toBeNull();
  });
  it('marks the offer the row was taken from', () => {
    const offers = [
      { price: '9.00', seller: 'A', condition: 'Good' },
      { price: '4.50', seller: 'B', condition: 'Fine' },
    ];
    expect(chosenOfferIndex(offers, { id: 9, price: 4.5, sellername: 'B', condition: 'Fine' })).toBe(1);
    expect(chosenOfferIndex(offers, { id: 9, price: 1 })).toBe(-1);
    expect(chosenOfferIndex(offers, undefined)).toBe(-1);
  });
});
