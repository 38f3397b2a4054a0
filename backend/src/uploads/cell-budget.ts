// Bounds on the work one upload may ask for, counted while it is read: a small file can describe
// millions of cells (or a cell at column 10 million), and each costs time even when blank.
import { formatCount, tooLarge } from './upload-error.ts';

/** Excel's last column is XFD, the 16,384th. */
export const MAX_COLUMNS = 16_384;

export class CellBudget {
  private used = 0;
  readonly max: number;

  // A plain field, not a parameter property: the parsing thread runs this file with Node's own type
  // stripping when started from the sources (uploads/parse-worker-entry.mjs), which takes no such syntax.
  constructor(max: number) {
    this.max = max;
  }

  /** Counts `n` cells (rows count as cells too: a million empty rows cost as much). */
  spend(n = 1): void {
    this.used += n;
    if (this.used > this.max) {
      throw tooLarge(
        `The file has more than ${formatCount(this.max)} cells, which is the limit. Delete the columns you do not need, or split it into smaller files.`,
      );
    }
  }
}

/** Refuses a cell past Excel's last column before any row array is sized by it. */
export function assertColumn(column: number, sheet: string, row: number): void {
  if (column >= MAX_COLUMNS || column < 0) {
    throw tooLarge(
      `Row ${formatCount(row + 1)} of sheet "${sheet}" has a cell beyond column XFD, the last column Excel allows. Save the sheet again from Excel, or as .csv.`,
    );
  }
}
