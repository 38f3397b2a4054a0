// An uploaded spreadsheet → the unique canonical ISBN-13s it lists, a report of what was done,
// and every cell that could not be used. Pure: no database, no HTTP.
import { CellBudget } from './cell-budget.ts';
import { readCsv } from './csv.ts';
import { assertContentMatchesKind, fileKindFromName } from './file-kind.ts';
import { ColumnScan } from './find-column.ts';
import { IsbnCollector, type UploadRejection } from './collect-isbns.ts';
import type { SheetSource } from './sheet.ts';
import { decodeText } from './text-decode.ts';
import { formatCount, tooLarge } from './upload-error.ts';
import { readXls } from './workbook.ts';
import { openXlsx } from './xlsx.ts';
import { guardZip } from './zip-guard.ts';

export interface UploadLimits {
  /** Data rows (non-blank, header excluded) in the sheet that is read. */
  maxRows: number;
  /** Unique ISBNs. */
  maxIsbns: number;
  /** Bytes the file may occupy once decompressed (the .xlsx parts, or the file itself). */
  maxUncompressedBytes: number;
  /** Rejected values kept for the report and the download; the rest are only counted. */
  maxRejectionsKept: number;
  /** Cells and rows the file may hold, blank ones included (all sheets together). */
  maxCells: number;
  /** Size of an .xls file: the old binary format is read whole into memory. */
  maxXlsBytes: number;
}

export interface UploadReport {
  sheet: string;
  /** The header text, or the column letter when there is no header row. */
  column: string;
  header_row: boolean;
  /** Non-blank rows below the header (blank rows are skipped silently). */
  rows_read: number;
  /** Unique ISBNs kept (= isbns.length). */
  isbns_accepted: number;
  /** Occurrences of an ISBN already seen (ISBN-10 and ISBN-13 of one book are the same ISBN). */
  duplicates_merged: number;
  /** Cells with at least one rejected value; `rejections` may list several per cell. */
  cells_rejected: number;
  /** Rejected values past the limit on kept ones: counted, not listed (absent on jobs from before). */
  rejections_not_kept?: number;
}

export interface ParsedUpload {
  /** Unique canonical ISBN-13s, in first-seen order. */
  isbns: string[];
  report: UploadReport;
  rejections: UploadRejection[];
}

function megabytes(bytes: number): string {
  return `${formatCount(Math.floor(bytes / 1_000_000))} MB`;
}

/** "uploads/Books 2024.csv" → "Books 2024", the sheet name Excel shows for a CSV. */
function csvSheetName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base) || 'Sheet1';
}

function openSheets(data: Buffer, filename: string, limits: UploadLimits, budget: CellBudget): SheetSource[] {
  const kind = fileKindFromName(filename);
  assertContentMatchesKind(kind, data);
  if (kind === 'xlsx') return openXlsx(data, guardZip(data, limits.maxUncompressedBytes), budget);
  if (data.length > limits.maxUncompressedBytes) {
    throw tooLarge(`The file is larger than ${megabytes(limits.maxUncompressedBytes)}. Split it into smaller files.`);
  }
  if (kind === 'csv') return [readCsv(decodeText(data), csvSheetName(filename))];
  if (data.length > limits.maxXlsBytes) {
    throw tooLarge(
      `An .xls file may be at most ${megabytes(limits.maxXlsBytes)}. Save it from Excel as .xlsx or .csv (read without that limit), or split it.`,
    );
  }
  return readXls(data);
}

/**
 * The rows are streamed, never held. One pass finds the ISBN column (ColumnScan) and counts the
 * rows; when the sheet names its ISBN column (the usual "ISBN" header) that same pass collects
 * the ISBNs, otherwise a second pass reads the chosen column.
 */
export function parseUpload(data: Buffer, filename: string, limits: UploadLimits): ParsedUpload {
  const budget = new CellBudget(limits.maxCells);
  const sheets = openSheets(data, filename, limits, budget);
  const scan = new ColumnScan();
  const collector = (sheet: SheetSource, column: number) =>
    new IsbnCollector(sheet.name, column, limits.maxIsbns, limits.maxRejectionsKept);
  let early: { sheet: SheetSource; headerRow: number; collector: IsbnCollector } | null = null;
  for (const sheet of sheets) {
    if (scan.decided) break; // an earlier sheet names an ISBN column that holds ISBNs: it is the one
    const scanRow = scan.rows(sheet);
    early = null;
    sheet.read((r, cells) => {
      scanRow(r, cells);
      if (early) early.collector.row(r, cells);
      else {
        const named = scan.namedColumn();
        if (named) early = { sheet, headerRow: named.row, collector: collector(sheet, named.column) };
      }
    }, budget);
    if (!scan.decided) early = null;
  }
  const { sheet, column, headerRow, label, dataStart, rowsRead } = scan.choose();
  if (rowsRead > limits.maxRows) {
    throw tooLarge(
      `The sheet "${sheet.name}" has ${formatCount(rowsRead)} rows; the limit is ${formatCount(limits.maxRows)}. Split it into smaller files.`,
    );
  }
  let found = early as { sheet: SheetSource; headerRow: number; collector: IsbnCollector } | null;
  if (!found || found.sheet !== sheet || found.collector.column !== column || found.headerRow !== headerRow) {
    const second = collector(sheet, column);
    // The first pass already charged these cells: this one cannot go over the budget.
    sheet.read((r, cells) => r >= dataStart && second.row(r, cells), new CellBudget(limits.maxCells));
    found = { sheet, headerRow: headerRow ?? -1, collector: second };
  }
  const { isbns, duplicates, cellsRejected, rejections } = found.collector;

  return {
    isbns,
    report: {
      sheet: sheet.name,
      column: label,
      header_row: headerRow !== null,
      rows_read: rowsRead,
      isbns_accepted: isbns.length,
      duplicates_merged: duplicates,
      cells_rejected: cellsRejected,
      rejections_not_kept: rejections.notKept,
    },
    rejections: rejections.kept,
  };
}
