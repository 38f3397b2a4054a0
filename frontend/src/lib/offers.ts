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
