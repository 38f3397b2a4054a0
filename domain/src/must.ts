/**
 * The value, known to be there although the types cannot say so (a regex group that always takes
 * part, a lookup in a complete table). Throws naming the broken invariant instead of carrying
 * `undefined` on, which is what a `!` would do.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`Invariant broken: ${what}`);
  return value;
}
