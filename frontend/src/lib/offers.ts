// The offers drawer's table: one column per key any offer has, in order of first appearance
// (marketplaces answer with different shapes, and not every offer has every key).
export function offerKeys(offers: readonly Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const o of offers) for (const k of Object.keys(o)) keys.add(k);
  return [...keys];
}

export function offerCellText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
