// An Alibris <book> as a book page shows it: its price in USD; Alibris states no shipping.
import { amount, currencyCode, firstText, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseAlibrisOffer: OfferNormaliser = (o) => {
  const currency = currencyCode(o.currency);
  return {
    price: amount(o.price, currency),
    shipping: null,
    delivered: null,
    condition: firstText(o.condition),
    seller: firstText(o.sellername),
    link: null,
  };
};
