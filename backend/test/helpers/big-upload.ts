// Large generated uploads for the memory test and the bench: a dealer's stock list of `rows` books
// (ISBN as a number the way Excel stores it, title, author, price, quantity), as .xlsx or .csv.
import { isbn10To13 } from '@app/domain/isbn';
import * as XLSX from '@e965/xlsx';
import { CORE_SECTIONS } from '../../src/core/config.ts';
import { uploadLimits } from '../../src/uploads/limits.ts';

/** The limits a default configuration gives uploads (the parse heap among them). */
export const DEFAULT_UPLOAD_LIMITS = uploadLimits(CORE_SECTIONS.uploads.parse({}));

function isbn10(n: number): string {
  const body = `0${String(n).padStart(8, '0')}`;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (10 - i) * Number(body[i]);
  const check = (11 - (sum % 11)) % 11;
  return body + (check === 10 ? 'X' : String(check));
}

/** The n-th of a run of distinct valid ISBN-13s. */
export const bigUploadIsbn = (n: number): string => isbn10To13(isbn10(n));

const HEADER = ['ISBN', 'Title', 'Author', 'Price', 'Qty'];
const row = (i: number): (string | number)[] => [
  Number(bigUploadIsbn(i)),
  `Book number ${i}`,
  `Author ${i % 5000}`,
  (i % 4000) / 100,
  1 + (i % 7),
];

/** An .xlsx as Excel writes one: numbers as numbers, text in the shared-string table. */
export function makeBigWorkbook(rows: number): Buffer {
  const aoa: (string | number)[][] = [HEADER];
  for (let i = 0; i < rows; i++) aoa.push(row(i));
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), 'Stock');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', bookSST: true, compression: true }) as Buffer;
}

/** The same list as a UTF-8 CSV. */
export function makeBigCsv(rows: number): Buffer {
  const lines = [HEADER.join(',')];
  for (let i = 0; i < rows; i++) lines.push(row(i).join(','));
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}
