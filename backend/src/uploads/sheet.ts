// The in-memory shape every reader (CSV, SheetJS) produces, so column detection has one input.
import type { IsbnCellValue } from '@app/domain/isbn';

export type CellValue = IsbnCellValue;

export interface Sheet {
  name: string;
  /** rows[r] is spreadsheet row r + 1; a missing row or cell is blank. */
  rows: (CellValue[] | null | undefined)[];
}

export function isBlankCell(v: CellValue): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

export function isBlankRow(row: CellValue[] | null | undefined): boolean {
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
