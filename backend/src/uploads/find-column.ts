// Which sheet and column hold the ISBNs. A known header ("ISBN", "EAN13", "Barcode"…) in the
// first rows wins; otherwise the column with the most valid ISBNs, across all sheets.
// Decided in one pass over the rows as they stream by (ColumnScan): per sheet it keeps only the
// first few non-blank rows and a few counts per column, never the cells.
import { normalizeIsbnCell } from '@app/domain/isbn';
import { columnLetter, isBlankCell, isBlankRow, type CellValue, type RowHandler, type SheetSource } from './sheet.ts';
import { unusable } from './upload-error.ts';

export interface ColumnChoice {
  sheet: SheetSource;
  /** 0-based column index. */
  column: number;
  /** 0-based index of the header row, or null when the data starts at the first row. */
  headerRow: number | null;
  /** The header text, or the column letter when there is no header. */
  label: string;
  /** 0-based index of the first row that may hold data. */
  dataStart: number;
  /** Non-blank rows from `dataStart` on. */
  rowsRead: number;
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

const SCIENTIFIC = /\dE\+?\d/i;
const LETTER = /\p{L}/u;

/** A column title, not a mangled value: letters, few digits, not "9.78049E+12". */
function isLabel(v: CellValue): boolean {
  if (typeof v !== 'string' || !LETTER.test(v) || SCIENTIFIC.test(v)) return false;
  return !mightHoldIsbn(v);
}

/** Without a known header name, a leading row is a header row when it reads like column titles. */
function isHeaderRow(row: readonly CellValue[], column: number): boolean {
  if (row.some(hasValidIsbn)) return false;
  const own = row[column];
  return (isBlankCell(own) || isLabel(own)) && row.some(isLabel);
}

/** Enough valid cells to be an ISBN column, not a SKU column where 1 in 11 numbers happens to validate. */
const MIN_VALID_SHARE = 0.3;

/** Title lines ("Stock list, March") may sit above the header row. */
const HEADER_SEARCH_ROWS = 10;

/** What one sheet's pass leaves behind. */
interface SheetStats {
  sheet: SheetSource;
  /** The first HEADER_SEARCH_ROWS non-blank rows. */
  leading: { row: number; cells: readonly CellValue[] }[];
  nonBlankRows: number;
  /** The first leading row naming an ISBN column, and those columns. */
  named: { row: number; columns: number[]; valid: number[]; firstRejection: (string | undefined)[] } | null;
  /** Per column, from the first non-blank row on. */
  valid: number[];
  nonBlank: number[];
}

/** The sheet names exactly one ISBN column and it holds a valid ISBN: step 1 will choose it. */
const settled = (s: SheetStats) => s.named !== null && s.named.columns.length === 1 && (s.named.valid[0] ?? 0) > 0;

function scanRow(s: SheetStats, row: number, cells: readonly CellValue[]): void {
  if (isBlankRow(cells)) return;
  s.nonBlankRows++;
  if (settled(s)) return; // nothing below can change the choice: the rows are only counted
  if (s.leading.length < HEADER_SEARCH_ROWS) {
    s.leading.push({ row, cells });
    if (!s.named) {
      const columns: number[] = [];
      for (let c = 0; c < cells.length; c++) if (isIsbnHeader(cells[c])) columns.push(c);
      if (columns.length > 0) s.named = { row, columns, valid: columns.map(() => 0), firstRejection: [] };
    }
  }
  const named = s.named && row > s.named.row ? s.named : null;
  for (let c = 0; c < cells.length; c++) {
    const v = cells[c];
    if (isBlankCell(v)) continue;
    s.nonBlank[c] = (s.nonBlank[c] ?? 0) + 1;
    const ok = hasValidIsbn(v);
    if (ok) s.valid[c] = (s.valid[c] ?? 0) + 1;
    const n = named ? named.columns.indexOf(c) : -1;
    if (n === -1 || !named) continue;
    if (ok) named.valid[n] = (named.valid[n] ?? 0) + 1;
    else if (named.firstRejection[n] === undefined) {
      const rejection = normalizeIsbnCell(v).rejections[0];
      if (rejection) named.firstRejection[n] = ` Row ${row + 1} holds "${rejection.raw}": ${rejection.reason}.`;
    }
  }
}

/** Column detection fed row by row: `rows(sheet)` for each sheet in order, then `choose()`. */
export class ColumnScan {
  private readonly sheets: SheetStats[] = [];

  /** A sheet read so far names an ISBN column holding a valid ISBN: later sheets cannot change the choice. */
  get decided(): boolean {
    return this.sheets.some((s) => s.named?.valid.some((v) => v > 0));
  }

  /**
   * The one ISBN column the sheet being read names (and its header row), when step 1 will choose it
   * as soon as it holds a valid ISBN: the caller may collect it in the same pass.
   */
  namedColumn(): { row: number; column: number } | null {
    const s = this.sheets.at(-1);
    const named = s?.named;
    if (named?.columns.length !== 1 || this.sheets.some((o) => o !== s && o.named?.valid.some((v) => v > 0))) return null;
    return { row: named.row, column: named.columns[0] ?? 0 };
  }

  rows(sheet: SheetSource): RowHandler {
    const stats: SheetStats = { sheet, leading: [], nonBlankRows: 0, named: null, valid: [], nonBlank: [] };
    this.sheets.push(stats);
    return (row, cells) => scanRow(stats, row, cells);
  }

  choose(): ColumnChoice {
    const rowsFrom = (s: SheetStats, dataStart: number) => s.nonBlankRows - s.leading.filter((l) => l.row < dataStart).length;
    if (this.sheets.every((s) => s.nonBlankRows === 0)) throw unusable('The file has no data: every sheet is empty.');

    // 1. A known header name in the first rows: the first sheet where it holds a valid ISBN.
    let namedButEmpty: { s: SheetStats; column: number; label: string; rejection: string | undefined } | null = null;
    for (const s of this.sheets) {
      if (!s.named) continue;
      const { row, columns, valid, firstRejection } = s.named;
      let best = 0;
      for (let n = 1; n < columns.length; n++) if ((valid[n] ?? 0) > (valid[best] ?? 0)) best = n;
      const column = columns[best] ?? 0;
      const header = s.leading.find((l) => l.row === row)?.cells ?? [];
      const label = String(header[column]).trim();
      if ((valid[best] ?? 0) > 0) {
        return { sheet: s.sheet, column, headerRow: row, label, dataStart: row + 1, rowsRead: rowsFrom(s, row + 1) };
      }
      namedButEmpty ??= { s, column, label, rejection: firstRejection[best] };
    }

    // 2. The sheet and column with the most valid ISBNs.
    let found: { s: SheetStats; column: number; valid: number } | null = null;
    for (const s of this.sheets) {
      for (let c = 0; c < s.valid.length; c++) {
        const v = s.valid[c] ?? 0;
        if (v === 0 || v < MIN_VALID_SHARE * (s.nonBlank[c] ?? 0)) continue;
        if (!found || v > found.valid) found = { s, column: c, valid: v };
      }
    }
    if (found) {
      const { s, column } = found;
      // Leading rows that read like titles: the last is the header row, and none are data.
      let headerRow: number | null = null;
      let label = columnLetter(column);
      for (const { row, cells } of s.leading) {
        if (!isHeaderRow(cells, column)) break;
        headerRow = row;
        const title = cells[column];
        if (!isBlankCell(title)) label = String(title).trim();
      }
      const dataStart = headerRow === null ? (s.leading[0]?.row ?? 0) : headerRow + 1;
      return { sheet: s.sheet, column, headerRow, label, dataStart, rowsRead: rowsFrom(s, dataStart) };
    }

    if (namedButEmpty) {
      const { s, label, rejection } = namedButEmpty;
      throw unusable(`No valid ISBNs in column "${label}" of sheet "${s.sheet.name}".${rejection ?? ' The column is empty.'}`);
    }
    throw unusable('No ISBN column found: no column holds a valid ISBN. Put the ISBNs in one column, ideally under the header "ISBN".');
  }
}
