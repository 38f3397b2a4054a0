import { MARKETPLACES, MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import {
  columnChoiceKey,
  defaultColumns,
  hiddenFields,
  moveColumn,
  readColumnChoice,
  sameChoice,
  shownFields,
  toggleColumn,
} from './column-choice';

const biblio = MARKETPLACES.biblio.fields;
const abe = MARKETPLACES.abe_books.fields;

describe('the default columns', () => {
  it('are the spec columns in the spec order', () => {
    expect(defaultColumns(abe)).toEqual([
      'id',
      'isbn',
      'listing_url',
      'listing_price',
      'total_listing_price',
      'quantity',
      'listing_condition',
      'item_condition',
      'seller_rating',
      'vendor_price',
      'vendor_id',
      'created_at',
      'updated_at',
      'input_filename',
      'isbn_lookup_job_id',
      'lookup_status',
    ]);
    expect(defaultColumns(MARKETPLACES.pallet_iq.fields)).toEqual([
      'id',
      'isbn',
      'winner_amazon_log_data_mp_decision',
      'winner_amazon_log_data_mm_val',
      'lookup_status',
    ]);
  });

  it('every marketplace has an ISBN column to keep shown', () => {
    for (const m of MARKETPLACE_LIST) expect(defaultColumns(m.fields)).toContain('isbn');
  });

  it('keys are per marketplace', () => {
    expect(new Set(MARKETPLACE_LIST.map((m) => columnChoiceKey(m.id))).size).toBe(MARKETPLACE_LIST.length);
  });
});

describe('reading a stored choice', () => {
  it('keeps a valid choice as it is, order included', () => {
    expect(readColumnChoice(['title', 'isbn', 'price'], biblio)).toEqual(['title', 'isbn', 'price']);
  });

  it('falls back to the default for nothing stored or something that is not a list', () => {
    for (const stored of [undefined, null, 'isbn,title', 42, { isbn: true }, '[not json']) {
      expect(readColumnChoice(stored, biblio)).toEqual(defaultColumns(biblio));
    }
  });

  it('drops unknown (removed) fields, non-strings and duplicates', () => {
    expect(readColumnChoice(['isbn', 'gone_field', 7, null, 'price', 'isbn', 'price'], biblio)).toEqual(['isbn', 'price']);
  });

  it('falls back to the default when nothing known is left', () => {
    expect(readColumnChoice([], biblio)).toEqual(defaultColumns(biblio));
    expect(readColumnChoice(['gone'], biblio)).toEqual(defaultColumns(biblio));
  });

  it('puts the ISBN back first when it is missing', () => {
    expect(readColumnChoice(['title', 'price'], biblio)).toEqual(['isbn', 'title', 'price']);
  });

  it('checks against the marketplace it is for: a Biblio field is unknown to Abe Books', () => {
    expect(readColumnChoice(['isbn', 'binding'], abe)).toEqual(['isbn']);
  });
});

describe('changing the choice', () => {
  const choice = ['id', 'isbn', 'price'];

  it('ticking a hidden column adds it at the right end; unticking removes it', () => {
    expect(toggleColumn(choice, 'title')).toEqual(['id', 'isbn', 'price', 'title']);
    expect(toggleColumn(choice, 'id')).toEqual(['isbn', 'price']);
  });

  it('the ISBN cannot be hidden', () => {
    expect(toggleColumn(choice, 'isbn')).toBe(choice);
  });

  it('moves a column one place either way and stops at the ends', () => {
    expect(moveColumn(choice, 'price', -1)).toEqual(['id', 'price', 'isbn']);
    expect(moveColumn(choice, 'id', 1)).toEqual(['isbn', 'id', 'price']);
    expect(moveColumn(choice, 'id', -1)).toBe(choice);
    expect(moveColumn(choice, 'price', 1)).toBe(choice);
    expect(moveColumn(choice, 'title', 1)).toBe(choice);
  });

  it('leaves the original untouched', () => {
    moveColumn(choice, 'price', -1);
    toggleColumn(choice, 'title');
    expect(choice).toEqual(['id', 'isbn', 'price']);
  });

  it('compares choices by names and order', () => {
    expect(sameChoice(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameChoice(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameChoice(['a'], ['a', 'b'])).toBe(false);
  });
});

describe('shown and hidden fields', () => {
  it('shown fields follow the choice; hidden ones the field table', () => {
    const choice = ['title', 'isbn'];
    expect(shownFields(choice, biblio).map((f) => f.label)).toEqual(['Title', 'ISBN']);
    const hidden = hiddenFields(choice, biblio);
    expect(hidden.length).toBe(biblio.length - 2);
    expect(hidden[0]!.name).toBe('id');
    expect(hidden.some((f) => f.name === 'title')).toBe(false);
  });

  it('Biblio offers every field of its table, about 70', () => {
    const all = [...shownFields(defaultColumns(biblio), biblio), ...hiddenFields(defaultColumns(biblio), biblio)];
    expect(all.length).toBe(biblio.length);
    expect(biblio.length).toBeGreaterThanOrEqual(65);
  });
});
