import { describe, expect, it } from 'vitest';
import { parseServerDate } from './format';
import { chosenOfferIndex, offerCellText, offerHeader, offerKeys, offerLink, offerMoney, summarisedOffers } from './offers';
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
  it('reads price, shipping, condition, seller and link from each wire format, cheapest first', () => {
    const abe = {
      listingUrl: 'www.abebooks.com/x',
      totalListingPrice: '12.50',
      listingPrice: '9',
      firstBookShipCost: '3.50',
      itemCondition: 'Fine',
      vendorName: 'Shop',
      vendorId: '7',
    };
    const biblio = {
      price: 8,
      shipping_price: 2,
      currency: 'eur',
      book_condition: 'Good',
      seller: 'Libreria',
      url: 'https://biblio.com/b',
      seller_id: 'x',
    };
    const alibris = { price: '20.00', condition: 'As new.', fl_bookcond: '5', sellername: 'Pico' };
    expect(summarisedOffers([alibris, abe, biblio])).toEqual([
      {
        price: { value: 8, currency: 'EUR' },
        shipping: { value: 2, currency: 'EUR' },
        delivered: { value: 10, currency: 'EUR' },
        condition: 'Good',
        seller: 'Libreria',
        link: 'https://biblio.com/b',
      },
      // AbeBooks' total is the delivered figure, its listing price the item's: $9 + $3.50, never "$12.50 + $3.50".
      {
        price: { value: '9', currency: 'USD' },
        shipping: { value: '3.50', currency: 'USD' },
        delivered: { value: '12.50', currency: 'USD' },
        condition: 'Fine',
        seller: 'Shop',
        link: 'www.abebooks.com/x',
      },
      { price: { value: '20.00', currency: 'USD' }, shipping: null, delivered: null, condition: 'As new.', seller: 'Pico', link: null },
    ]);
    // PalletIQ's evaluation is no listing: shown whole instead.
    expect(summarisedOffers([{ status: 'success', meta: { title: 't' } }])).toBeNull();
  });
  it("reads eBay's nested item summaries: {value, currency} strings, the seller's username, the first shipping cost", () => {
    const ebay = (price: string, shipping?: string) => ({
      itemId: `v1|${price}|0`,
      price: { value: price, currency: 'USD' },
      seller: { username: 'shelfwise', feedbackPercentage: '99.1', feedbackScore: 812 },
      condition: 'Very Good',
      conditionId: '4000',
      shippingOptions: [
        shipping === undefined
          ? { shippingCostType: 'CALCULATED' }
          : { shippingCostType: 'FIXED', shippingCost: { value: shipping, currency: 'USD' } },
      ],
      itemWebUrl: 'https://www.ebay.com/itm/1',
    });
    expect(summarisedOffers([ebay('9.00'), ebay('6.75', '0.00')])).toEqual([
      {
        price: { value: '6.75', currency: 'USD' },
        shipping: { value: '0.00', currency: 'USD' },
        delivered: { value: 6.75, currency: 'USD' },
        condition: 'Very Good',
        seller: 'shelfwise',
        link: 'https://www.ebay.com/itm/1',
      },
      {
        price: { value: '9.00', currency: 'USD' },
        shipping: null,
        delivered: null,
        condition: 'Very Good',
        seller: 'shelfwise',
        link: 'https://www.ebay.com/itm/1',
      },
    ]);
  });
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
