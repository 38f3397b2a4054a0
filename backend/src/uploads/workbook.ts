// .xlsx / .xls bytes → sheets of cell values, via SheetJS. Numbers stay numbers (the exact float
// 9780486229874, never its "9.78049E+12" display text), formulas give their cached value.
import * as XLSX from '@e965/xlsx';
import type { CellValue, Sheet } from './sheet.ts';
import { unusable } from './upload-error.ts';
import { must } from '@app/domain/must';

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

function toSheet(name: string, ws: XLSX.WorkSheet): Sheet {
  const data = (ws as DenseWorksheet)['!data'] ?? [];
  const rows: Sheet['rows'] = new Array(data.length);
  for (let r = 0; r < data.length; r++) {
    const src = data[r];
    if (!src) continue;
    const row: CellValue[] = new Array(src.length);
    for (let c = 0; c < src.length; c++) row[c] = cellValue(src[c]);
    rows[r] = row;
  }
  return { name, rows };
}

/** `data` must already have passed the content and zip-bomb checks. */
export function readWorkbook(data: Buffer, kind: 'xlsx' | 'xls'): Sheet[] {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(data, READ_OPTIONS);
  } catch (err) {
    const detail =
      err instanceof Error && /password|encrypt/i.test(err.message) ? ' It is password-protected: remove the password in Excel first.' : '';
    throw unusable(`The .${kind} file is damaged and cannot be opened.${detail || ' Open it in Excel, save it again and re-upload.'}`);
  }
  return wb.SheetNames.map((name) => toSheet(name, must(wb.Sheets[name], `sheet ${name} listed in SheetNames`)));
}
