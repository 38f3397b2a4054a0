// Which columns a marketplace table (or a job's comparison) shows, in which order: a list of field names chosen by the
// user and kept in localStorage. Everything read back is checked against the field table, so a
// stale or hand-edited value (a field since removed, a duplicate, not JSON at all) never breaks
// the page.
import type { FieldDef } from '@app/domain/fields';
import { must } from '@app/domain/must';

/** The field names shown, left to right. */
export type ColumnChoice = readonly string[];

/** Always shown: the ISBN is what a row is about, and it stays pinned while scrolling sideways. */
export const ALWAYS_SHOWN = 'isbn';

/** localStorage key of one marketplace's choice. */
export const columnChoiceKey = (marketplaceId: string) => `lookup-columns:${marketplaceId}`;

/** The specification's columns in its order: what a user who never chose sees. */
export function defaultColumns(fields: readonly FieldDef[]): ColumnChoice {
  return fields.filter((f) => f.column).map((f) => f.name);
}

/**
 * A stored value as a usable choice: known field names only, each once, the ISBN always in.
 * Anything unusable (not an array, nothing known left) falls back to the default.
 */
export function readColumnChoice(
  stored: unknown,
  fields: readonly FieldDef[],
  defaults: ColumnChoice = defaultColumns(fields),
): ColumnChoice {
  if (!Array.isArray(stored)) return defaults;
  const known = new Set(fields.map((f) => f.name));
  const names = [...new Set(stored.filter((n): n is string => typeof n === 'string' && known.has(n)))];
  if (names.length === 0) return defaults;
  return known.has(ALWAYS_SHOWN) && !names.includes(ALWAYS_SHOWN) ? [ALWAYS_SHOWN, ...names] : names;
}

/** Shows a hidden column (at the right end) or hides a shown one; the ISBN stays. */
export function toggleColumn(choice: ColumnChoice, name: string): ColumnChoice {
  if (name === ALWAYS_SHOWN) return choice;
  return choice.includes(name) ? choice.filter((n) => n !== name) : [...choice, name];
}

/** Moves a shown column one place left (-1) or right (+1); at either end nothing changes. */
export function moveColumn(choice: ColumnChoice, name: string, by: -1 | 1): ColumnChoice {
  const from = choice.indexOf(name);
  const to = from + by;
  if (from < 0 || to < 0 || to >= choice.length) return choice;
  const next = [...choice];
  [next[from], next[to]] = [must(next[to], 'to is in range'), must(next[from], 'from is in range')];
  return next;
}

export function sameChoice(a: ColumnChoice, b: ColumnChoice): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** The shown fields, in the chosen order. */
export function shownFields(choice: ColumnChoice, fields: readonly FieldDef[]): FieldDef[] {
  const byName = new Map(fields.map((f) => [f.name, f]));
  return choice.flatMap((n) => byName.get(n) ?? []);
}

/** The fields not shown, in field-table order (the spec's columns first, then the rest). */
export function hiddenFields(choice: ColumnChoice, fields: readonly FieldDef[]): FieldDef[] {
  return fields.filter((f) => !choice.includes(f.name));
}
