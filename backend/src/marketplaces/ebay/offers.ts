// An eBay ItemSummary as a book page shows it: amounts are `{value, currency}` strings, the seller
// is `{username, …}`, the shipping the first option with a cost (CALCULATED shipping has none).
import { asObject, delivered, firstText, link, nestedAmount, type OfferNormaliser } from '../offer-summary.ts';

export const normaliseEbayOffer: OfferNormaliser = (o) => {
  const price = nestedAmount(o.price);
  const options = Array.isArray(o.shippingOptions) ? o.shippingOptions : [];
  const shipping = options.map((option) => nestedAmount(asObject(option)?.shippingCost)).find((a) => a !== null) ?? null;
  const seller = asObject(o.seller);
  return {
    price,
    shipping,
    delivered: delivered(price, shipping),
    condition: firstText(o.condition),
    seller: firstText(seller?.username, seller?.name),
    link: link(o.itemWebUrl) ?? link(o.itemAffiliateWebUrl),
  };
};
