// An Amazon used offer as mapping.ts's offerRow stored it: listing price and shipping in its currency.
import { amount, currencyCode, delivered, firstText, link, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseAmazonOffer: OfferNormaliser = (o) => {
  const currency = currencyCode(o.currency);
  const price = amount(o.listing_price, currency);
  const shipping = amount(o.shipping_price, currency);
  return {
    price,
    shipping,
    delivered: delivered(price, shipping),
    condition: firstText(o.condition),
    seller: firstText(o.seller),
    link: link(o.product_url),
  };
};
