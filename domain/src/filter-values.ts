// What a filter's value must be for its field's type: the one reading of numbers and dates shared by
// the filters' SQL (backend/src/lib/filter-sql.ts), the buy rules' validation and the rule editor.
import type { FieldDef } from './fields.ts';

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// JavaScript reads dates far outside what PostgreSQL stores; keep to ordinary calendar years.
const MIN_DATE = Date.parse('0001-01-01T00:00:00Z');
const MAX_DATE = Date.parse('9999-12-31T23:59:59.999Z');

/** A finite number, or undefined (blank text is not zero). */
export function parseFilterNumber(value: string): number | undefined {
  const v = value.trim();
  const n = Number(v);
  return v === '' || !Number.isFinite(n) ? undefined : n;
}

/** A date as filters take it: a bare day (UTC, compared as the whole day) or a full timestamp. */
export function parseFilterDate(value: string): { start: Date; wholeDay: boolean } | undefined {
  const v = value.trim();
  const wholeDay = DAY_ONLY.test(v);
  const t = Date.parse(wholeDay ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(t) || t < MIN_DATE || t > MAX_DATE) return undefined;
  return { start: new Date(t), wholeDay };
}

/** Why `value` does not fit the field's type, or undefined when it does (any text fits a text field). */
export function filterValueProblem(def: FieldDef, value: string): string | undefined {
  if (def.type === 'number' && parseFilterNumber(value) === undefined) return `Value for '${def.name}' must be a number`;
  if (def.type === 'date' && !parseFilterDate(value))
    return `Value for '${def.name}' must be a date (YYYY-MM-DD) between 0001-01-01 and 9999-12-31`;
  return undefined;
}
