// Each selling marketplace's offer normaliser (its folder's offers.ts) reads its own wire format for
// a book's page; the registry names it, and PalletIQ's evaluation has none.
import { PRICE_SOURCES } from '@app/domain/comparison';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import { normaliseAbeBooksOffer } from './abebooks/offers.ts';
import { normaliseAlibrisOffer } from './alibris/offers.ts';
import { normaliseAmazonOffer } from './amazon/offers.ts';
import { normaliseBiblioOffer } from './biblio/offers.ts';
import { normaliseEbayOffer } from './ebay/offers.ts';
import { link, summariseOffers, type OfferNormaliser } from './offer-summary.ts';
import { marketplaceRegistry } from './registry.ts';

const usd = (value: number) => ({ value, currency: 'USD' });
/** Several marketplaces' offers on one page: each read by its own normaliser, then ordered cheapest delivered first. */
const mixed: OfferNormaliser = (o) =>
  o.vendorName ? normaliseAbeBooksOffer(o) : o.sellername ? normaliseAlibrisOffer(o) : normaliseBiblioOffer(o);

describe('offer normalisers', () => {
  it('every selling marketplace names one in its registry entry; an advising one none', () => {
    for (const m of MARKETPLACE_LIST)
      expect(marketplaceRegistry[m.id].normaliseOffer !== undefined, m.id).toBe(PRICE_SOURCES.some((s) => s.marketplace === m.id));
  });

  it('read price, shipping, condition, seller and link from each wire format, cheapest delivered first', () => {
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
    expect(summariseOffers(mixed, [alibris, abe, biblio])).toEqual([
      {
        price: { value: 8, currency: 'EUR' },
        shipping: { value: 2, currency: 'EUR' },
        delivered: { value: 10, currency: 'EUR' },
        condition: 'Good',
        seller: 'Libreria',
        link: 'https://biblio.com/b',
      },
      // AbeBooks' total is the delivered figure, its listing price the item's: $9 + $3.50, never "$12.50 + $3.50".
      { price: usd(9), shipping: usd(3.5), delivered: usd(12.5), condition: 'Fine', seller: 'Shop', link: 'www.abebooks.com/x' },
      { price: usd(20), shipping: null, delivered: null, condition: 'As new.', seller: 'Pico', link: null },
    ]);
    // PalletIQ's evaluation is no listing: shown whole instead.
    expect(summariseOffers(marketplaceRegistry.pallet_iq.normaliseOffer, [{ status: 'success', meta: { title: 't' } }])).toBeNull();
    // Nothing priced and no seller: nothing to summarise.
    expect(summariseOffers(normaliseBiblioOffer, [{ title: 't' }])).toBeNull();
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
    expect(summariseOffers(normaliseEbayOffer, [ebay('9.00'), ebay('6.75', '0.00')])).toEqual([
      {
        price: usd(6.75),
        shipping: usd(0),
        delivered: usd(6.75),
        condition: 'Very Good',
        seller: 'shelfwise',
        link: 'https://www.ebay.com/itm/1',
      },
      // CALCULATED shipping has no cost: the delivered price is unknown, not the item's.
      { price: usd(9), shipping: null, delivered: null, condition: 'Very Good', seller: 'shelfwise', link: 'https://www.ebay.com/itm/1' },
    ]);
  });

  it("reads Amazon's stored offer rows: listing price + shipping in their currency", () => {
    const offer = {
      listing_price: 4.5,
      shipping_price: 3.99,
      currency: 'USD',
      condition: 'Used',
      sub_condition: 'Very Good',
      seller: 'A1SELLER',
      product_url: 'https://www.amazon.com/dp/0131103628',
    };
    expect(normaliseAmazonOffer(offer)).toEqual({
      price: usd(4.5),
      shipping: usd(3.99),
      delivered: usd(8.49),
      condition: 'Used',
      seller: 'A1SELLER',
      link: 'https://www.amazon.com/dp/0131103628',
    });
  });

  it('links only to addresses', () => {
    expect(link('www.abebooks.com/servlet/x?y=1')).toBe('www.abebooks.com/servlet/x?y=1');
    expect(link('not a link')).toBeNull();
  });
});
