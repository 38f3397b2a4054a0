// An Amazon used offer as mapping.ts's offerRow stored it: listing price and shipping in its currency.
import { currencyCode, firstText, link, plainOffer, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseAmazonOffer: OfferNormaliser = (o) =>
  plainOffer(
    { price: o.listing_price, shipping: o.shipping_price, currency: currencyCode(o.currency) },
    { condition: firstText(o.condition), seller: firstText(o.seller), link: link(o.product_url) },
  );
