// Which sheet and column hold the ISBNs. A known header ("ISBN", "EAN13", "Barcode"…) in the
// first rows wins; otherwise the column with the most valid ISBNs, across all sheets.
import { normalizeIsbnCell } from '@app/domain/isbn';
import { columnLetter, isBlankCell, isBlankRow, type CellValue, type Sheet } from './sheet.ts';
import { unusable } from './upload-error.ts';

export interface ColumnChoice {
  sheet: Sheet;
  /** 0-based column index. */
  column: number;
  /** 0-based index of the header row, or null when the data starts at the first row. */
  headerRow: number | null;
  /** The header text, or the column letter when there is no header. */
  label: string;
  /** 0-based index of the first row that may hold data. */
  dataStart: number;
}

const HEADER_NAMES = new Set(['isbn', 'isbn13', 'isbn10', 'ean', 'ean13', 'barcode', 'upc']);

/** "ISBN-13", " isbn_13 ", "ISBN 13:", "EAN #" → the bare names above. */
export function isIsbnHeader(cell: CellValue): boolean {
  if (typeof cell !== 'string') return false;
  return HEADER_NAMES.has(
    cell
      .trim()
      .toLowerCase()
      .replace(/[\s_\-:#.()]+/g, ''),
  );
}

/**
 * Cheap pre-check so titles, prices and quantities never reach the full normaliser: an ISBN has
 * at least 7 digits (an ISBN-10 whose leading zeros Excel dropped).
 */
function mightHoldIsbn(v: CellValue): boolean {
  if (typeof v === 'number') return v >= 1_000_000;
  if (typeof v !== 'string' || v.length < 7) return false;
  let digits = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++digits >= 7) return true;
  }
  return false;
}

export function hasValidIsbn(v: CellValue): boolean {
  return mightHoldIsbn(v) && normalizeIsbnCell(v).isbns.length > 0;
}

function firstNonBlankRow(sheet: Sheet): number {
  for (let r = 0; r < sheet.rows.length; r++) if (!isBlankRow(sheet.rows[r])) return r;
  return -1;
}

interface ColumnCounts {
  valid: number[];
  nonBlank: number[];
}

function countColumns(sheet: Sheet, fromRow: number, only?: number[]): ColumnCounts {
  const valid: number[] = [];
  const nonBlank: number[] = [];
  for (let r = fromRow; r < sheet.rows.length; r++) {
    const row = sheet.rows[r];
    if (!row) continue;
    const columns = only ?? row.keys();
    for (const c of columns) {
      const v = row[c];
      if (isBlankCell(v)) continue;
      nonBlank[c] = (nonBlank[c] ?? 0) + 1;
      if (hasValidIsbn(v)) valid[c] = (valid[c] ?? 0) + 1;
    }
  }
  return { valid, nonBlank };
}

const SCIENTIFIC = /\dE\+?\d/i;
const LETTER = /\p{L}/u;

/** A column title, not a mangled value: letters, few digits, not "9.78049E+12". */
function isLabel(v: CellValue): boolean {
  if (typeof v !== 'string' || !LETTER.test(v) || SCIENTIFIC.test(v)) return false;
  return !mightHoldIsbn(v);
}

/** Without a known header name, a leading row is a header row when it reads like column titles. */
function isHeaderRow(row: CellValue[], column: number): boolean {
  if (row.some(hasValidIsbn)) return false;
  const own = row[column];
  return (isBlankCell(own) || isLabel(own)) && row.some(isLabel);
}

/** Enough valid cells to be an ISBN column, not a SKU column where 1 in 11 numbers happens to validate. */
const MIN_VALID_SHARE = 0.3;

function firstRejection(sheet: Sheet, column: number, fromRow: number): string {
  for (let r = fromRow; r < sheet.rows.length; r++) {
    const v = sheet.rows[r]?.[column];
    if (isBlankCell(v)) continue;
    const rejection = normalizeIsbnCell(v).rejections[0];
    if (rejection) return ` Row ${r + 1} holds "${rejection.raw}": ${rejection.reason}.`;
  }
  return ' The column is empty.';
}

/** Title lines ("Stock list, March") may sit above the header row. */
const HEADER_SEARCH_ROWS = 10;

/** The first row, among the first non-blank ones, naming an ISBN column; and those columns. */
function findNamedHeader(sheet: Sheet, first: number): { row: number; named: number[] } | null {
  if (first === -1) return null;
  for (let r = first, seen = 0; r < sheet.rows.length && seen < HEADER_SEARCH_ROWS; r++) {
    const row = sheet.rows[r];
    if (!row || isBlankRow(row)) continue;
    seen++;
    const named = [...row.keys()].filter((c) => isIsbnHeader(row[c]));
    if (named.length > 0) return { row: r, named };
  }
  return null;
}

export function chooseIsbnColumn(sheets: Sheet[]): ColumnChoice {
  const scanned = sheets.map((sheet) => ({ sheet, first: firstNonBlankRow(sheet) }));
  if (scanned.every(({ first }) => first === -1)) throw unusable('The file has no data: every sheet is empty.');

  // 1. A known header name in the first rows: the first sheet where it holds a valid ISBN.
  let namedButEmpty: ColumnChoice | null = null;
  for (const { sheet, first } of scanned) {
    const header = findNamedHeader(sheet, first);
    if (!header) continue;
    const { row, named } = header;
    const headerCells = sheet.rows[row] ?? [];
    const { valid } = countColumns(sheet, row + 1, named);
    const best = named.reduce((a, b) => ((valid[b] ?? 0) > (valid[a] ?? 0) ? b : a));
    const choice = { sheet, column: best, headerRow: row, label: String(headerCells[best]).trim(), dataStart: row + 1 };
    if ((valid[best] ?? 0) > 0) return choice;
    namedButEmpty ??= choice;
  }

  // 2. The sheet and column with the most valid ISBNs.
  let found: { sheet: Sheet; first: number; column: number; valid: number } | null = null;
  for (const { sheet, first } of scanned) {
    if (first === -1) continue;
    const { valid, nonBlank } = countColumns(sheet, first);
    for (let c = 0; c < valid.length; c++) {
      const v = valid[c] ?? 0;
      if (v === 0 || v < MIN_VALID_SHARE * (nonBlank[c] ?? 0)) continue;
      if (!found || v > found.valid) found = { sheet, first, column: c, valid: v };
    }
  }
  if (found) {
    const { sheet, first, column } = found;
    // Leading rows that read like titles: the last is the header row, and none are data.
    let headerRow: number | null = null;
    let label = columnLetter(column);
    for (let r = first, seen = 0; r < sheet.rows.length && seen < HEADER_SEARCH_ROWS; r++) {
      const row = sheet.rows[r];
      if (!row || isBlankRow(row)) continue;
      seen++;
      if (!isHeaderRow(row, column)) break;
      headerRow = r;
      const title = row[column];
      if (!isBlankCell(title)) label = String(title).trim();
    }
    return { sheet, column, headerRow, label, dataStart: headerRow === null ? first : headerRow + 1 };
  }

  if (namedButEmpty) {
    const { sheet, column, label, dataStart } = namedButEmpty;
    throw unusable(`No valid ISBNs in column "${label}" of sheet "${sheet.name}".${firstRejection(sheet, column, dataStart)}`);
  }
  throw unusable('No ISBN column found: no column holds a valid ISBN. Put the ISBNs in one column, ideally under the header "ISBN".');
}
