import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import { csvFilename, fileTimestamp, filenameFromDisposition } from './download';
import { externalHref } from './links';

describe('CSV file names', () => {
  const at = new Date('2025-03-04T05:06:07.890Z');
  it('source prefix and a timestamp', () => {
    expect(fileTimestamp(at)).toBe('20250304T050607');
    expect(MARKETPLACE_LIST.map((m) => csvFilename(m.csvPrefix, at))).toEqual([
      'abe_books_price_lookups_20250304T050607.csv',
      'biblio_price_lookups_20250304T050607.csv',
      'alibris_price_lookups_20250304T050607.csv',
      'pallet_iq_price_lookups_20250304T050607.csv',
      'amazon_price_lookups_20250304T050607.csv',
      'ebay_price_lookups_20250304T050607.csv',
    ]);
  });

  it("prefers the server's Content-Disposition name", () => {
    expect(filenameFromDisposition('attachment; filename="biblio_price_lookups_20250101T000000.csv"')).toBe(
      'biblio_price_lookups_20250101T000000.csv',
    );
    expect(filenameFromDisposition('attachment; filename=job_3_rejected_cells.csv')).toBe('job_3_rejected_cells.csv');
    expect(filenameFromDisposition("attachment; filename*=UTF-8''a%20b.csv")).toBe('a b.csv');
    expect(filenameFromDisposition('attachment')).toBeUndefined();
    expect(filenameFromDisposition(null)).toBeUndefined();
  });
});

describe('external links (https prefixed if missing)', () => {
  it.each([
    ['https://www.abebooks.com/x', 'https://www.abebooks.com/x'],
    ['http://biblio.com/b', 'http://biblio.com/b'],
    ['www.abebooks.com/x', 'https://www.abebooks.com/x'],
    ['//cdn.example.com/y', 'https://cdn.example.com/y'],
  ])('%s → %s', (input, href) => expect(externalHref(input)).toBe(href));
});
