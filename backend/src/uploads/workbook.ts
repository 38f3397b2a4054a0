// .xls bytes → sheets, via SheetJS: the only maintained reader of the old binary format, and one
// that builds the whole workbook in memory, so .xls uploads have their own size cap
// (UPLOAD_XLS_MAX_BYTES). Numbers stay numbers, formulas give their cached value.
import * as XLSX from '@e965/xlsx';
import { must } from '@app/domain/must';
import { assertColumn } from './cell-budget.ts';
import type { CellValue, SheetSource } from './sheet.ts';
import { unusable } from './upload-error.ts';

const READ_OPTIONS: XLSX.ParsingOptions = {
  type: 'buffer',
  dense: true, // rows as arrays: much faster than A1-keyed objects on big sheets
  cellDates: true, // a date in the ISBN column is reported as a date, not as a serial number
  cellFormula: false,
  cellHTML: false,
  cellNF: false,
  cellStyles: false,
  cellText: false,
  bookVBA: false,
};

interface DenseWorksheet {
  '!data'?: (XLSX.CellObject[] | null | undefined)[];
}

function cellValue(cell: XLSX.CellObject | null | undefined): CellValue {
  if (!cell) return null;
  switch (cell.t) {
    case 'n':
    case 's':
    case 'b':
      return cell.v as number | string | boolean;
    case 'd':
      return cell.v instanceof Date ? cell.v : new Date(String(cell.v));
    case 'e':
      return cell.w ?? '#ERROR'; // #N/A, #VALUE!: reported as "Not an ISBN"
    default:
      return null;
  }
}

function toSource(name: string, ws: XLSX.WorkSheet): SheetSource {
  const data = (ws as DenseWorksheet)['!data'] ?? [];
  return {
    name,
    read(onRow, budget) {
      for (let r = 0; r < data.length; r++) {
        const src = data[r];
        if (!src) continue;
        budget.spend(1 + src.length);
        assertColumn(src.length - 1, name, r);
        const row: CellValue[] = new Array(src.length);
        for (let c = 0; c < src.length; c++) row[c] = cellValue(src[c]);
        onRow(r, row);
      }
    },
  };
}

/** `data` must already have passed the content check and the .xls size cap. */
export function readXls(data: Buffer): SheetSource[] {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(data, READ_OPTIONS);
  } catch (err) {
    const detail =
      err instanceof Error && /password|encrypt/i.test(err.message) ? ' It is password-protected: remove the password in Excel first.' : '';
    throw unusable(`The .xls file is damaged and cannot be opened.${detail || ' Open it in Excel, save it again and re-upload.'}`);
  }
  return wb.SheetNames.map((name) => toSource(name, must(wb.Sheets[name], `sheet ${name} listed in SheetNames`)));
}
