// An answer that is not a list of offers (PalletIQ's one evaluation, nested objects and all) as
// "label: value" lines a dealer can read, instead of its raw JSON. Nested keys are flattened; each
// line takes the marketplace's own field label where the field table names it (the full path in
// snake case, e.g. winner.amazonLogData.mm_val → winner_amazon_log_data_mm_val → "PalletIQ Profit",
// or the key alone), else the key made readable.
import type { FieldDef } from '@app/domain/fields';
import { offerHeader } from '../../lib/offers';

export interface ReadableField {
  /** The dotted path in the answer, e.g. "winner.amazonLogData.mm_val". */
  path: string;
  label: string;
  /** The leaf key, for money and link detection (lib/offers). */
  key: string;
  value: unknown;
}

const snake = (path: string) =>
  path
    .replace(/\./g, '_')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .toLowerCase();

function flatten(value: unknown, path: string[], out: { path: string[]; value: unknown }[]): void {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, [...path, k], out);
    return;
  }
  out.push({ path, value });
}

export function readableFields(answer: Record<string, unknown>, fields: readonly FieldDef[] = []): ReadableField[] {
  const labels = new Map(fields.map((f) => [f.name, f.label]));
  const leaves: { path: string[]; value: unknown }[] = [];
  flatten(answer, [], leaves);
  return leaves
    .filter((l) => l.value !== null && l.value !== undefined && l.value !== '')
    .map(({ path, value }) => {
      const dotted = path.join('.');
      const key = path.at(-1) ?? dotted;
      const label = labels.get(snake(dotted)) ?? labels.get(snake(key)) ?? offerHeader(key);
      return { path: dotted, label, key, value };
    });
}

/** A value that is not money or a link, as words: yes/no for a boolean, a list's items by commas. */
export function readableValue(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(', ');
  return String(value);
}
