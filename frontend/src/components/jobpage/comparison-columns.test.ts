import { COMPARISON_FIELDS } from '@app/domain/comparison';
import { describe, expect, it } from 'vitest';
import { readColumnChoice, shownFields } from '../../lib/column-choice';
import { COMPARISON_DEFAULT_COLUMNS, comparisonColumnsKey, comparisonDefaults, pinnedFirst } from './comparison-columns';

const withoutAmazon = COMPARISON_FIELDS.filter((f) => !f.name.startsWith('amazon_'));

describe('comparison columns', () => {
  it('defaults to the short set, skipping a column the job lacks', () => {
    expect(comparisonDefaults(COMPARISON_FIELDS)).toEqual([...COMPARISON_DEFAULT_COLUMNS]);
    expect(comparisonDefaults(withoutAmazon)).not.toContain('amazon_sales_rank');
  });

  it('reads nothing stored, or nothing usable, as the short default rather than every column', () => {
    const defaults = comparisonDefaults(COMPARISON_FIELDS);
    expect(readColumnChoice(undefined, COMPARISON_FIELDS, defaults)).toEqual(defaults);
    expect(readColumnChoice(['gone'], COMPARISON_FIELDS, defaults)).toEqual(defaults);
    expect(readColumnChoice(['spread', 'title'], COMPARISON_FIELDS, defaults)).toEqual(['isbn', 'spread', 'title']);
  });

  it('keeps ISBN, title and decision on the left whatever the chosen order', () => {
    const shown = shownFields(['best_price', 'decision', 'spread', 'isbn', 'title'], COMPARISON_FIELDS);
    expect(pinnedFirst(shown).map((f) => f.name)).toEqual(['isbn', 'title', 'decision', 'best_price', 'spread']);
  });

  it('keeps each user’s choice under a key of their own', () => {
    expect(comparisonColumnsKey('u1')).not.toBe(comparisonColumnsKey('u2'));
  });
});
