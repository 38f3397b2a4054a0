// An AbeBooks <Book> as a book page shows it: totalListingPrice is the delivered figure (book +
// first-book shipping), listingPrice the item's, firstBookShipCost the shipping.
import { currencyCode, firstText, link, plainOffer, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseAbeBooksOffer: OfferNormaliser = (o) =>
  plainOffer(
    {
      price: o.listingPrice,
      shipping: o.firstBookShipCost,
      total: o.totalListingPrice,
      currency: currencyCode(o.currency, o.vendorCurrency, o.purchaseCurrency),
    },
    { condition: firstText(o.itemCondition, o.listingCondition), seller: firstText(o.vendorName), link: link(o.listingUrl) },
  );
