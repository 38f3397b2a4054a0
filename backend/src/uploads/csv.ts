// CSV text → rows of strings, one record at a time. Our own parser on purpose: every cell stays
// text, so leading zeros and 13-digit numbers never pass through a float, and Excel's quirks
// (text after a closing quote, an unclosed quote running to the end) read as Excel reads them.
import { type CellBudget, MAX_COLUMNS, assertColumn } from './cell-budget.ts';
import type { SheetSource } from './sheet.ts';

export const DELIMITERS = [',', ';', '\t'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

const QUOTE = 34; // "
const CR = 13;
const LF = 10;

/**
 * RFC 4180 with "" escapes; CRLF, LF or CR line ends. Yields each record as it is read; a record
 * with more fields than Excel has columns is refused before it grows further.
 */
export function* csvRecords(text: string, delimiter: Delimiter, sheetName = ''): Generator<string[]> {
  const delim = delimiter.charCodeAt(0);
  const n = text.length;
  let records = 0;
  let row: string[] = [];
  let i = 0;
  while (i < n) {
    let value: string;
    if (text.charCodeAt(i) === QUOTE) {
      // Quoted field: runs to the next lone quote; "" is a literal quote.
      let out = '';
      let start = ++i;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) {
          out += text.slice(start);
          i = n;
          break;
        }
        if (text.charCodeAt(q + 1) === QUOTE) {
          out += text.slice(start, q + 1);
          i = start = q + 2;
          continue;
        }
        out += text.slice(start, q);
        i = q + 1;
        break;
      }
      // Excel keeps anything between the closing quote and the delimiter.
      const rest = i;
      while (i < n && text.charCodeAt(i) !== delim && text.charCodeAt(i) !== LF && text.charCodeAt(i) !== CR) i++;
      value = out + text.slice(rest, i);
    } else {
      const start = i;
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === delim || c === LF || c === CR) break;
        i++;
      }
      value = text.slice(start, i);
    }
    if (row.push(value) > MAX_COLUMNS) assertColumn(row.length - 1, sheetName, records);
    if (i >= n) break;
    const c = text.charCodeAt(i++);
    if (c === delim) {
      if (i === n) row.push('');
      continue;
    }
    if (c === CR && text.charCodeAt(i) === LF) i++;
    yield row;
    records++;
    row = [];
  }
  if (row.length > 0) yield row;
}

/** The first `maxRecords` records, as arrays. */
export function parseCsv(text: string, delimiter: Delimiter, maxRecords = Infinity): string[][] {
  const rows: string[][] = [];
  if (maxRecords <= 0) return rows;
  for (const row of csvRecords(text, delimiter)) if (rows.push(row) >= maxRecords) break;
  return rows;
}

const SNIFF_CHARS = 64 * 1024;
const SNIFF_RECORDS = 50;

/**
 * The delimiter that splits the first records into the most consistent number of fields (more
 * than one). Ties go to tab, then semicolon: a semicolon file with decimal commas ("12,50") can
 * look just as consistent when split on commas.
 */
export function sniffDelimiter(text: string): Delimiter {
  const sample = text.slice(0, SNIFF_CHARS);
  let best: Delimiter = ',';
  let bestScore: [number, number] = [-1, -1];
  for (const d of ['\t', ';', ','] as const) {
    const rows = parseCsv(sample, d, SNIFF_RECORDS).filter((r) => r.length > 1 || r[0] !== '');
    const counts = new Map<number, number>();
    for (const r of rows) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
    let mode = 1;
    let agreeing = 0;
    for (const [fields, times] of counts) if (times > agreeing || (times === agreeing && fields > mode)) [mode, agreeing] = [fields, times];
    if (mode < 2) continue;
    const score: [number, number] = [agreeing, mode];
    if (score[0] > bestScore[0] || (score[0] === bestScore[0] && score[1] > bestScore[1])) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** The CSV as a one-sheet source: records are read from `text` again on each pass, never kept. */
export function readCsv(text: string, sheetName: string): SheetSource {
  const delimiter = sniffDelimiter(text);
  return {
    name: sheetName,
    read(onRow, budget: CellBudget) {
      let r = 0;
      for (const row of csvRecords(text, delimiter, sheetName)) {
        budget.spend(1 + row.length);
        onRow(r++, row);
      }
    },
  };
}
