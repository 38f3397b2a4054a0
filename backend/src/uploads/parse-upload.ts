// An uploaded spreadsheet → the unique canonical ISBN-13s it lists, a report of what was done,
// and every cell that could not be used. Pure: no database, no HTTP.
import { BoundedRejections, clipRejectedValue } from '@app/domain/bounded-rejections';
import { normalizeIsbnCell } from '@app/domain/isbn';
import { readCsv } from './csv.ts';
import { assertContentMatchesKind, fileKindFromName } from './file-kind.ts';
import { chooseIsbnColumn } from './find-column.ts';
import { isBlankCell, isBlankRow, type Sheet } from './sheet.ts';
import { decodeText } from './text-decode.ts';
import { formatCount, tooLarge, unusable } from './upload-error.ts';
import { readWorkbook } from './workbook.ts';
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

export interface UploadRejection {
  sheet: string;
  /** 1-based spreadsheet row. */
  row_number: number;
  raw_value: string;
  reason: string;
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

const WORKBOOK_PART = /(?:^|\/)workbook\.(?:xml|bin)$/i; // xl/workbook.xml in practice

function readSheets(data: Buffer, filename: string, limits: UploadLimits): Sheet[] {
  const kind = fileKindFromName(filename);
  assertContentMatchesKind(kind, data);
  if (kind === 'xlsx') {
    const checked = guardZip(data, limits.maxUncompressedBytes);
    // A .docx, .ods or plain archive renamed .xlsx is a zip too.
    if (!checked.entries.some((e) => WORKBOOK_PART.test(e.name))) {
      throw unusable('This .xlsx file is not an Excel workbook (it is another kind of ZIP archive). Save it from Excel as .xlsx or .csv.');
    }
    return readWorkbook(checked.data, kind);
  }
  if (data.length > limits.maxUncompressedBytes) {
    throw tooLarge(`The file is larger than ${megabytes(limits.maxUncompressedBytes)}. Split it into smaller files.`);
  }
  return kind === 'xls' ? readWorkbook(data, kind) : [readCsv(decodeText(data), csvSheetName(filename))];
}

export function parseUpload(data: Buffer, filename: string, limits: UploadLimits): ParsedUpload {
  const sheets = readSheets(data, filename, limits);
  const { sheet, column, headerRow, label, dataStart } = chooseIsbnColumn(sheets);

  let rowsRead = 0;
  for (let r = dataStart; r < sheet.rows.length; r++) if (!isBlankRow(sheet.rows[r])) rowsRead++;
  if (rowsRead > limits.maxRows) {
    throw tooLarge(
      `The sheet "${sheet.name}" has ${formatCount(rowsRead)} rows; the limit is ${formatCount(limits.maxRows)}. Split it into smaller files.`,
    );
  }

  const isbns: string[] = [];
  const seen = new Set<string>();
  const rejections = new BoundedRejections<UploadRejection>(limits.maxRejectionsKept);
  let duplicates = 0;
  let cellsRejected = 0;
  for (let r = dataStart; r < sheet.rows.length; r++) {
    const value = sheet.rows[r]?.[column];
    if (isBlankCell(value)) continue;
    const cell = normalizeIsbnCell(value);
    for (const isbn of cell.isbns) {
      if (seen.has(isbn)) {
        duplicates++;
        continue;
      }
      seen.add(isbn);
      isbns.push(isbn);
      if (isbns.length > limits.maxIsbns) {
        throw tooLarge(
          `The file lists more than ${formatCount(limits.maxIsbns)} different ISBNs, which is the limit. Split it into smaller files.`,
        );
      }
    }
    if (cell.rejections.length > 0) cellsRejected++;
    for (const { raw, reason } of cell.rejections) {
      rejections.add({ sheet: sheet.name, row_number: r + 1, raw_value: clipRejectedValue(raw), reason });
    }
  }

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
