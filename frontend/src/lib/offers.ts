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
