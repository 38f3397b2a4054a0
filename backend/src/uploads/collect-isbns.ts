// The ISBN column's cells → unique canonical ISBN-13s, the duplicates merged and the rejected
// values (a bounded number kept). Fed one row at a time; refuses the file as soon as it lists more
// ISBNs than allowed.
import { BoundedRejections, clipRejectedValue } from '@app/domain/bounded-rejections';
import { normalizeIsbnCell } from '@app/domain/isbn';
import { type CellValue, isBlankCell } from './sheet.ts';
import { formatCount, tooLarge } from './upload-error.ts';

export interface UploadRejection {
  sheet: string;
  /** 1-based spreadsheet row. */
  row_number: number;
  raw_value: string;
  reason: string;
}

export class IsbnCollector {
  readonly isbns: string[] = [];
  private readonly seen = new Set<string>();
  readonly rejections: BoundedRejections<UploadRejection>;
  duplicates = 0;
  cellsRejected = 0;

  private readonly sheetName: string;
  readonly column: number;
  private readonly maxIsbns: number;

  // No parameter properties: the parsing thread runs from the sources with Node's type stripping.
  constructor(sheetName: string, column: number, maxIsbns: number, maxRejectionsKept: number) {
    this.sheetName = sheetName;
    this.column = column;
    this.maxIsbns = maxIsbns;
    this.rejections = new BoundedRejections<UploadRejection>(maxRejectionsKept);
  }

  row(r: number, cells: readonly CellValue[]): void {
    const value = cells[this.column];
    if (isBlankCell(value)) return;
    const cell = normalizeIsbnCell(value);
    for (const isbn of cell.isbns) {
      if (this.seen.has(isbn)) {
        this.duplicates++;
        continue;
      }
      this.seen.add(isbn);
      if (this.isbns.push(isbn) > this.maxIsbns) {
        throw tooLarge(
          `The file lists more than ${formatCount(this.maxIsbns)} different ISBNs, which is the limit. Split it into smaller files.`,
        );
      }
    }
    if (cell.rejections.length > 0) this.cellsRejected++;
    for (const { raw, reason } of cell.rejections) {
      this.rejections.add({ sheet: this.sheetName, row_number: r + 1, raw_value: clipRejectedValue(raw), reason });
    }
  }
}
