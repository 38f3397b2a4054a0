// What every reader (CSV, streaming .xlsx, SheetJS for .xls) produces: sheets whose rows are handed
// over one at a time, so column detection and ISBN collection never hold the whole file as cells.
import type { IsbnCellValue } from '@app/domain/isbn';
import type { CellBudget } from './cell-budget.ts';

export type CellValue = IsbnCellValue;

/** Called once per row that has cells, in order; `row` is 0-based (spreadsheet row row + 1). */
export type RowHandler = (row: number, cells: readonly CellValue[]) => void;

export interface SheetSource {
  name: string;
  /** Reads the sheet from its start, charging `budget` for every row and cell; may be called again. */
  read(onRow: RowHandler, budget: CellBudget): void;
}

export function isBlankCell(v: CellValue): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

export function isBlankRow(row: readonly CellValue[] | null | undefined): boolean {
  if (!row) return true;
  for (let c = 0; c < row.length; c++) if (!isBlankCell(row[c])) return false;
  return true;
}

/** 0 → "A", 25 → "Z", 26 → "AA": the column name a spreadsheet user sees. */
export function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
