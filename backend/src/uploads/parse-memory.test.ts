// The memory one upload may use (issue 16): a dealer's 150,000-row list, as .xlsx and as .csv, is
// read on the parse thread under a 64 MB heap. Reading either whole (SheetJS, or every CSV row kept)
// ran out of that heap: the old reader needed about 256 MB for the workbook.
import { describe, expect, it } from 'vitest';
import { DEFAULT_UPLOAD_LIMITS as limits, bigUploadIsbn, makeBigCsv, makeBigWorkbook } from '../../test/helpers/big-upload.ts';
import { parseUploadOffThread } from './parse-off-thread.ts';

const ROWS = 150_000;
const HEAP_MB = 64;

describe(`a ${ROWS.toLocaleString('en-US')}-row upload read under a ${HEAP_MB} MB heap`, () => {
  it.each([
    ['stock.xlsx', makeBigWorkbook],
    ['stock.csv', makeBigCsv],
  ])(
    '%s',
    async (name, make) => {
      const data = make(ROWS);
      const result = await parseUploadOffThread(data, name, limits, HEAP_MB);
      expect(result.report).toMatchObject({
        sheet: name.endsWith('.csv') ? 'stock' : 'Stock',
        column: 'ISBN',
        rows_read: ROWS,
        isbns_accepted: ROWS,
      });
      expect(result.isbns[0]).toBe(bigUploadIsbn(0));
      expect(result.isbns.at(-1)).toBe(bigUploadIsbn(ROWS - 1));
    },
    300_000,
  );
});
