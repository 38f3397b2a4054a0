// The comparison's columns on a job's page: a short default set (what a dealer decides on), the
// columns pinned while the rest scroll sideways, and where a user's choice is kept.
import type { FieldDef } from '@app/domain/fields';
import type { ColumnChoice } from '../../lib/column-choice';

/** What a user who never chose sees, left to right (a column the job lacks, e.g. Amazon's rank, is skipped). */
export const COMPARISON_DEFAULT_COLUMNS = [
  'isbn',
  'title',
  'decision',
  'best_price',
  'best_source',
  'estimated_profit',
  'amazon_sales_rank',
] as const;

/** Kept in view while scrolling sideways, and always left of the other columns: which book, and what was decided. */
export const COMPARISON_PINNED = ['isbn', 'title', 'decision'] as const;

/** localStorage key of one user's comparison columns (one browser may serve several users). */
export const comparisonColumnsKey = (userId: string) => `comparison-columns:${userId}`;

export function comparisonDefaults(fields: readonly FieldDef[]): ColumnChoice {
  const known = new Set(fields.map((f) => f.name));
  return COMPARISON_DEFAULT_COLUMNS.filter((n) => known.has(n));
}

/** The shown fields with the pinned ones moved to the left (in pinned order), the rest in the chosen order. */
export function pinnedFirst(shown: readonly FieldDef[]): FieldDef[] {
  const pinned = COMPARISON_PINNED.flatMap((n) => shown.filter((f) => f.name === n));
  return [...pinned, ...shown.filter((f) => !(COMPARISON_PINNED as readonly string[]).includes(f.name))];
}
