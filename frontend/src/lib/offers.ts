// The offers drawer's table: one column per key any offer has (marketplaces answer with different
// shapes, and not every offer has every key). The keys a dealer compares offers on come first —
// price, shipping, condition, seller — then the rest in order of first appearance.
const FIRST = [/price|cost|total|mm_val/i, /ship/i, /cond/i, /seller|vendor|dealer/i, /qty|quantity/i];

function rank(key: string): number {
  const i = FIRST.findIndex((re) => re.test(key));
  return i === -1 ? FIRST.length : i;
}

export function offerKeys(offers: readonly Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const o of offers) for (const k of Object.keys(o)) keys.add(k);
  // Array.prototype.sort is stable: keys of equal rank keep their first-seen order.
  return [...keys].sort((a, b) => rank(a) - rank(b));
}

export function offerCellText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** A wire key as a header: `extraBookShipCost` / `listing_orig_price` → "Extra Book Ship Cost" / "Listing Orig Price". */
export function offerHeader(key: string): string {
  return key
    .replace(/_/g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b\w/g, (c) => c.toUpperCase());
}

const MONEY_KEY = /price|cost|mm_val/i;
const CURRENCY_KEYS = ['currency', 'vendorCurrency', 'purchaseCurrency'];

/** An offer's amount as money (two decimals, its currency, USD when it names none), else null. */
export function offerMoney(key: string, offer: Record<string, unknown>): { value: unknown; currency: string } | null {
  const v = offer[key];
  if (!MONEY_KEY.test(key)) return null;
  // eBay's amounts are objects of their own, `{value: "20.50", currency: "USD"}`.
  if (typeof v === 'object' && v !== null) return nestedAmount(v);
  const numeric = typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
  if (!numeric) return null;
  const code = CURRENCY_KEYS.map((k) => offer[k]).find((c) => typeof c === 'string' && /^[A-Za-z]{3}$/.test(c));
  return { value: v, currency: typeof code === 'string' ? code.toUpperCase() : 'USD' };
}

/**
 * Which offer the lookup row was taken from: the one sharing most values with the row (the
 * marketplace mapping copies the chosen offer's price, seller, condition, link… into the row's
 * columns); a single offer is the chosen one. -1 when nothing matches.
 */
export function chosenOfferIndex(offers: readonly Record<string, unknown>[], row: Record<string, unknown> | undefined): number {
  if (!row) return -1;
  if (offers.length === 1) return 0;
  const rowValues = new Set(
    Object.entries(row)
      .filter(
        ([k, v]) =>
          v !== null &&
          v !== '' &&
          typeof v !== 'object' &&
          !['id', 'isbn', 'lookup_status', 'isbn_lookup_job_id', 'input_filename', 'created_at', 'updated_at'].includes(k),
      )
      .map(([, v]) => normalise(v)),
  );
  let best = -1;
  let bestScore = 0;
  offers.forEach((o, i) => {
    const score = Object.values(o).filter((v) => v !== null && v !== '' && typeof v !== 'object' && rowValues.has(normalise(v))).length;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return best;
}

// "12.50", 12.5 and "12.5" are the same amount.
function normalise(v: unknown): string {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? String(n) : String(v).trim().toLowerCase();
}

const LINK_KEY = /url|link/i;

/** An offer's address to follow (its listing), when the key names a link and the value is one; else null. */
export function offerLink(key: string, offer: Record<string, unknown>): string | null {
  const v = offer[key];
  if (!LINK_KEY.test(key) || typeof v !== 'string') return null;
  const text = v.trim();
  // An address, with or without its scheme (marketplaces send both): no spaces, a dot in the host.
  return /^(https?:\/\/|\/\/)?[^\s/]+\.[^\s/]+(\/\S*)?$/i.test(text) ? text : null;
}

type Amount = { value: unknown; currency: string };

/**
 * One offer as a dealer reads it at a glance: the item's price, its shipping, what it costs delivered
 * (the marketplace's total, else price + shipping; unknown while the shipping is), condition, seller
 * and listing. Three labelled figures, so AbeBooks' total is never read as its item price.
 */
export interface OfferSummary {
  price: Amount | null;
  shipping: Amount | null;
  delivered: Amount | null;
  condition: string | null;
  seller: string | null;
  link: string | null;
}

// The wire keys that hold each part, best first (AbeBooks, Biblio and Alibris name them differently).
const PRICE_KEYS = [/^price$/i, /^listing_?price$/i];
const TOTAL_KEYS = [/^total_?listing_?price$/i];
const SHIPPING_KEYS = [/^first_?book_?ship_?cost$/i, /^shipping_?(price|cost)$/i];
const CONDITION_KEYS = [/^item_?condition$/i, /^book_?condition$/i, /^condition$/i, /^listing_?condition$/i];
const SELLER_KEYS = [/^vendor_?name$/i, /^seller_?name$/i, /^seller$/i, /^dealer$/i];

function firstKey(offer: Record<string, unknown>, patterns: RegExp[]): string | undefined {
  const keys = Object.keys(offer).filter((k) => offer[k] !== null && offer[k] !== '');
  for (const re of patterns) {
    const k = keys.find((key) => re.test(key));
    if (k) return k;
  }
  return undefined;
}

function text(offer: Record<string, unknown>, patterns: RegExp[]): string | null {
  const k = firstKey(offer, patterns);
  return k === undefined ? null : offerCellText(offer[k]);
}

/** eBay nests amounts as `{value, currency}` (strings), the seller as `{username, …}` and shipping in `shippingOptions[]`. */
type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

function nestedAmount(v: unknown): { value: unknown; currency: string } | null {
  const o = asObj(v);
  if (!o || o.value === undefined || !Number.isFinite(Number(o.value))) return null;
  return {
    value: o.value,
    currency: typeof o.currency === 'string' && /^[A-Za-z]{3}$/.test(o.currency) ? o.currency.toUpperCase() : 'USD',
  };
}

function nestedShipping(offer: Obj): { value: unknown; currency: string } | null {
  const options = offer.shippingOptions;
  if (!Array.isArray(options)) return null;
  for (const option of options) {
    const cost = nestedAmount(asObj(option)?.shippingCost);
    if (cost) return cost;
  }
  return null;
}

export function offerSummary(offer: Record<string, unknown>): OfferSummary {
  const money = (patterns: RegExp[]) => {
    const k = firstKey(offer, patterns);
    return k === undefined ? null : (offerMoney(k, offer) ?? nestedAmount(offer[k]));
  };
  const sellerObj = asObj(offer.seller);
  const sellerName =
    sellerObj && (typeof sellerObj.username === 'string' ? sellerObj.username : typeof sellerObj.name === 'string' ? sellerObj.name : null);
  const linkKey = Object.keys(offer).find((k) => offerLink(k, offer) !== null);
  const price = money(PRICE_KEYS);
  const shipping = money(SHIPPING_KEYS) ?? nestedShipping(offer);
  return {
    price,
    shipping,
    delivered: money(TOTAL_KEYS) ?? sum(price, shipping),
    condition: text(offer, CONDITION_KEYS),
    seller: sellerName ?? text(offer, SELLER_KEYS),
    link: linkKey === undefined ? null : offerLink(linkKey, offer),
  };
}

/** Price + shipping in cents, when both are known and in one currency. */
function sum(price: Amount | null, shipping: Amount | null): Amount | null {
  if (!price || !shipping || price.currency !== shipping.currency) return null;
  const [a, b] = [Number(price.value), Number(shipping.value)];
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return { value: (Math.round(a * 100) + Math.round(b * 100)) / 100, currency: price.currency };
}

/** Offers summarised, cheapest delivered first (then by price; those without a price last); null when none has a price or a seller (e.g. PalletIQ's evaluation). */
export function summarisedOffers(offers: readonly Record<string, unknown>[]): OfferSummary[] | null {
  const rows = offers.map(offerSummary);
  if (!rows.some((r) => r.price || r.seller)) return null;
  const amount = (r: OfferSummary) => {
    const m = r.delivered ?? r.price;
    return m ? Number(m.value) : Number.POSITIVE_INFINITY;
  };
  return rows.sort((a, b) => amount(a) - amount(b));
}
