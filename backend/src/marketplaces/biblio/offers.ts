// A Biblio listing as a book page shows it: price and shipping_price in the listing's currency.
import { amount, currencyCode, delivered, firstText, link, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseBiblioOffer: OfferNormaliser = (o) => {
  const currency = currencyCode(o.currency);
  const price = amount(o.price, currency);
  const shipping = amount(o.shipping_price, currency);
  return {
    price,
    shipping,
    delivered: delivered(price, shipping),
    condition: firstText(o.book_condition, o.condition),
    seller: firstText(o.seller),
    link: link(o.url) ?? link(o.book_link) ?? link(o.affiliate_url),
  };
};
