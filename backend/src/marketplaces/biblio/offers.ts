// A Biblio listing as a book page shows it: price and shipping_price in the listing's currency.
import { currencyCode, firstText, link, plainOffer, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseBiblioOffer: OfferNormaliser = (o) =>
  plainOffer(
    { price: o.price, shipping: o.shipping_price, currency: currencyCode(o.currency) },
    {
      condition: firstText(o.book_condition, o.condition),
      seller: firstText(o.seller),
      link: link(o.url) ?? link(o.book_link) ?? link(o.affiliate_url),
    },
  );
