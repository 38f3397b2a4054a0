// .xlsx → sheets read row by row. Each part is inflated in slices (zip-part.ts) and fed to a
// streaming XML parser; only the shared-string table and one row at a time are held. Numbers stay
// numbers (the exact float 9780486229874, never its "9.78049E+12" display text), formulas give
// their cached value and a date-formatted number is a Date, as SheetJS gave them before.
import { Parser } from 'htmlparser2';
import { type CellBudget, assertColumn } from './cell-budget.ts';
import { readZipPart } from './zip-part.ts';
import type { CellValue, RowHandler, SheetSource } from './sheet.ts';
import { unusable } from './upload-error.ts';
import type { CheckedZipEntry } from './zip-guard.ts';

type Attributes = Record<string, string>;

interface XmlHandlers {
  open?(name: string, attributes: Attributes): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** "x:row" → "row": some writers prefix the spreadsheet namespace. */
const local = (name: string) => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

function readXml(zip: Uint8Array, entry: CheckedZipEntry, handlers: XmlHandlers): void {
  const parser = new Parser(
    {
      onopentag: handlers.open && ((name, attributes) => handlers.open?.(local(name), attributes)),
      ontext: handlers.text,
      onclosetag: handlers.close && ((name) => handlers.close?.(local(name))),
    },
    { xmlMode: true },
  );
  readZipPart(zip, entry, (text) => parser.write(text));
  parser.end();
}

/** OOXML writes characters XML cannot carry as _xHHHH_ (a carriage return is _x000D_). */
const unescapeOoxml = (s: string) =>
  s.includes('_x') ? s.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : s;

/** Built-in number formats that show a date or time (ECMA-376 18.8.30, with the East Asian ones). */
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

/** A custom format code shows a date when, without its quoted text, escapes and [colours], it has d, m, y, h or s. */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|[_*].|\[(?![hms]+\])[^\]]*\]/gi, '');
  return /[dmyhs]/i.test(bare);
}

/** Excel's day 0 is 1899-12-30 (25,569 days before 1970); 1904-based workbooks start 1,462 days later. */
function serialToDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial + (date1904 ? 1462 : 0) - 25_569) * 86_400_000));
}

/** "AB12" → 27; -1 when the reference has no column letters. */
function columnOf(ref: string): number {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 97 || c > 122) break;
    column = column * 26 + (c - 96);
    if (column > 1e9) break;
  }
  return i === 0 ? -1 : column - 1;
}

interface Workbook {
  sheets: { name: string; path: string | null }[];
  date1904: boolean;
  sharedStrings: string | null;
  styles: string | null;
}

/** "xl/workbook.xml" + "worksheets/sheet1.xml" → "xl/worksheets/sheet1.xml"; "/xl/…" is already absolute. */
function resolvePart(base: string, target: string): string {
  const parts = target.startsWith('/') ? [] : base.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '' && p !== '.') parts.push(p);
  }
  return parts.join('/');
}

function readWorkbookPart(zip: Uint8Array, parts: Map<string, CheckedZipEntry>, workbookEntry: CheckedZipEntry): Workbook {
  const listed: { name: string; rid: string }[] = [];
  let date1904 = false;
  readXml(zip, workbookEntry, {
    open(name, a) {
      if (name === 'sheet') listed.push({ name: a.name ?? `Sheet${listed.length + 1}`, rid: a['r:id'] ?? a.id ?? '' });
      else if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
    },
  });
  const base = workbookEntry.name;
  const relsEntry = parts.get(resolvePart(base, `_rels/${base.split('/').pop()}.rels`).toLowerCase());
  const targets = new Map<string, string>();
  let sharedStrings: string | null = null;
  let styles: string | null = null;
  if (relsEntry) {
    readXml(zip, relsEntry, {
      open(name, a) {
        if (name !== 'Relationship' || !a.Target || a.TargetMode === 'External') return;
        const path = resolvePart(base, a.Target).toLowerCase();
        if (a.Id) targets.set(a.Id, path);
        if (a.Type?.endsWith('/sharedStrings')) sharedStrings = path;
        if (a.Type?.endsWith('/styles')) styles = path;
      },
    });
  }
  const dir = resolvePart(base, '.');
  return {
    sheets: listed.map(({ name, rid }, i) => ({ name, path: targets.get(rid) ?? `${dir}/worksheets/sheet${i + 1}.xml`.toLowerCase() })),
    date1904,
    sharedStrings: sharedStrings ?? `${dir}/sharedstrings.xml`.toLowerCase(),
    styles: styles ?? `${dir}/styles.xml`.toLowerCase(),
  };
}

/** The shared-string table: each <si>'s text runs joined, without phonetic (<rPh>) runs. */
function readSharedStrings(zip: Uint8Array, entry: CheckedZipEntry | undefined, budget: CellBudget): string[] {
  const strings: string[] = [];
  if (!entry) return strings;
  let text = '';
  let inText = false;
  let phonetic = 0;
  readXml(zip, entry, {
    open(name) {
      if (name === 'si') {
        text = '';
        budget.spend();
      } else if (name === 't') inText = phonetic === 0;
      else if (name === 'rPh') phonetic++;
    },
    text(t) {
      if (inText) text += t;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') strings.push(unescapeOoxml(text));
    },
  });
  return strings;
}

/** Which cell styles (indexes into <cellXfs>) show their number as a date. */
function readDateStyles(zip: Uint8Array, entry: CheckedZipEntry | undefined): boolean[] {
  const dateStyles: boolean[] = [];
  if (!entry) return dateStyles;
  const customDate = new Map<number, boolean>();
  let inCellXfs = false;
  readXml(zip, entry, {
    open(name, a) {
      if (name === 'numFmt') customDate.set(Number(a.numFmtId), isDateFormat(a.formatCode ?? ''));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(a.numFmtId ?? 0);
        dateStyles.push(customDate.get(id) ?? BUILT_IN_DATE_FORMATS.has(id));
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return dateStyles;
}

interface SheetContext {
  sharedStrings: string[];
  dateStyles: boolean[];
  date1904: boolean;
}

function cellValue(type: string | undefined, style: number, text: string, hasValue: boolean, ctx: SheetContext): CellValue {
  switch (type) {
    case 's':
      return hasValue ? (ctx.sharedStrings[Number(text)] ?? null) : null;
    case 'str':
    case 'inlineStr':
      return hasValue ? unescapeOoxml(text) : null;
    case 'b':
      return hasValue ? text === '1' || text === 'true' : null;
    case 'e':
      return hasValue ? text : null; // #N/A, #VALUE!: reported as "Not an ISBN"
    case 'd':
      return hasValue ? new Date(text) : null;
    default: {
      if (!hasValue || text.trim() === '') return null;
      const n = Number(text);
      if (Number.isNaN(n)) return null;
      return ctx.dateStyles[style] ? serialToDate(n, ctx.date1904) : n;
    }
  }
}

function readSheetRows(
  zip: Uint8Array,
  entry: CheckedZipEntry,
  name: string,
  ctx: SheetContext,
  onRow: RowHandler,
  budget: CellBudget,
): void {
  let row = -1;
  let cells: CellValue[] = [];
  let column = -1;
  let type: string | undefined;
  let style = 0;
  let text = '';
  let hasValue = false;
  let collecting = false; // inside <v>, or a <t> of an inline string outside phonetic runs
  let inCell = false;
  let inInline = false;
  let phonetic = 0;
  readXml(zip, entry, {
    open(tag, a) {
      switch (tag) {
        case 'row': {
          budget.spend();
          const r = a.r === undefined ? Number.NaN : Number(a.r) - 1;
          row = Number.isInteger(r) && r > row ? r : row + 1;
          cells = [];
          column = -1;
          break;
        }
        case 'c': {
          budget.spend();
          const c = a.r === undefined ? -1 : columnOf(a.r);
          column = c === -1 ? column + 1 : c;
          assertColumn(column, name, row);
          type = a.t;
          style = a.s === undefined ? 0 : Number(a.s);
          text = '';
          hasValue = false;
          inCell = true;
          break;
        }
        case 'v':
          if (inCell) {
            collecting = true;
            hasValue = true;
          }
          break;
        case 'is':
          inInline = inCell;
          break;
        case 'rPh':
          phonetic++;
          break;
        case 't':
          if (inInline && phonetic === 0) {
            collecting = true;
            hasValue = true;
          }
          break;
      }
    },
    text(t) {
      if (collecting) text += t;
    },
    close(tag) {
      switch (tag) {
        case 'v':
        case 't':
          collecting = false;
          break;
        case 'is':
          inInline = false;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'c': {
          const value = cellValue(type, style, text, hasValue, ctx);
          if (value !== null) cells[column] = value;
          inCell = false;
          break;
        }
        case 'row':
          if (cells.length > 0) onRow(row, cells);
          cells = [];
          break;
      }
    },
  });
}

const WORKBOOK_PART = /(?:^|\/)workbook\.(?:xml|bin)$/i; // xl/workbook.xml in practice

/** The sheets of a checked .xlsx zip (zip-guard.ts), in workbook order; each is read when asked. */
export function openXlsx(zip: Uint8Array, entries: CheckedZipEntry[], budget: CellBudget): SheetSource[] {
  const workbookEntry = entries.find((e) => WORKBOOK_PART.test(e.name));
  // A .docx, .ods or plain archive renamed .xlsx is a zip too.
  if (!workbookEntry)
    throw unusable('This .xlsx file is not an Excel workbook (it is another kind of ZIP archive). Save it from Excel as .xlsx or .csv.');
  if (workbookEntry.name.toLowerCase().endsWith('.bin')) {
    throw unusable('This file is an Excel binary workbook (.xlsb) with an .xlsx name. Save it from Excel as .xlsx or .csv.');
  }
  const parts = new Map(entries.map((e) => [e.name.toLowerCase(), e]));
  const workbook = readWorkbookPart(zip, parts, workbookEntry);
  const ctx: SheetContext = {
    sharedStrings: readSharedStrings(zip, workbook.sharedStrings ? parts.get(workbook.sharedStrings) : undefined, budget),
    dateStyles: readDateStyles(zip, workbook.styles ? parts.get(workbook.styles) : undefined),
    date1904: workbook.date1904,
  };
  return workbook.sheets.map(({ name, path }) => {
    const entry = path ? parts.get(path) : undefined;
    return {
      name,
      read: (onRow: RowHandler, readBudget: CellBudget) => {
        if (entry) readSheetRows(zip, entry, name, ctx, onRow, readBudget);
      },
    };
  });
}
