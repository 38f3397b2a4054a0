// An Alibris <book> as a book page shows it: its price in USD; Alibris states no shipping.
import { currencyCode, firstText, plainOffer, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseAlibrisOffer: OfferNormaliser = (o) =>
  plainOffer(
    { price: o.price, shipping: undefined, currency: currencyCode(o.currency) },
    { condition: firstText(o.condition), seller: firstText(o.sellername), link: null },
  );
