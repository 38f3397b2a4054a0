// An AbeBooks <Book> as a book page shows it: totalListingPrice is the delivered figure (book +
// first-book shipping), listingPrice the item's, firstBookShipCost the shipping.
import { amount, currencyCode, delivered, firstText, link, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseAbeBooksOffer: OfferNormaliser = (o) => {
  const currency = currencyCode(o.currency, o.vendorCurrency, o.purchaseCurrency);
  const price = amount(o.listingPrice, currency);
  const shipping = amount(o.firstBookShipCost, currency);
  return {
    price,
    shipping,
    delivered: amount(o.totalListingPrice, currency) ?? delivered(price, shipping),
    condition: firstText(o.itemCondition, o.listingCondition),
    seller: firstText(o.vendorName),
    link: link(o.listingUrl),
  };
};
