// A pasted or scanned list of codes → the ISBNs it holds, with the same clean-up as a spreadsheet
// cell (normalizeIsbnCell). Shared by the Create Job dialog's live count and the API, so both
// count alike.
//
// How the text is split (a barcode scanner types each code followed by Enter):
//   1. Every line break ends a code; each code keeps its 1-based line number for the report.
//   2. A tab ends a code (cells copied from a spreadsheet row).
//   3. Commas, semicolons, slashes and pipes separate codes (normalizeIsbnCell splits on them).
//   4. Spaces separate codes only between two words that each hold 10 or more digits: no code is
//      longer than 18 digits, so two such words are never one code. Shorter words stay together
//      and the normaliser decides, so "978-0-306-40615-7", "978 0 306 40615 7" and an EAN with its
//      price add-on "9780306406157 51299" each stay one code.
import { BoundedRejections } from './bounded-rejections.ts';
import { normalizeIsbnCell, type IsbnRejectionReason } from './isbn.ts';

/** The input_filename of a job created from a pasted list (no upload can be named so: it has no extension). */
export const PASTED_LIST_FILENAME = 'pasted list';

export const PASTE_MESSAGES = {
  empty: 'Enter at least one ISBN.',
  noneRecognised: 'None of these codes is an ISBN.',
} as const;

export interface PastedCode {
  /** 1-based line of the pasted text. */
  line: number;
  text: string;
}

const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
const CELL_BREAK = /\t/;
const SPACES = /[^\S\t\r\n]+/;
const CODE_CHARS = /\d|(?<=\d)X/gi;
const WHOLE_CODE_DIGITS = 10;

const codeLength = (word: string) => word.match(CODE_CHARS)?.length ?? 0;

/** One tab-free stretch of a line → its codes (rule 4 above). */
function splitWords(cell: string, line: number, out: PastedCode[]): void {
  let words: string[] = [];
  let previousIsWhole = false;
  for (const word of cell.split(SPACES)) {
    if (word === '') continue;
    const isWhole = codeLength(word) >= WHOLE_CODE_DIGITS;
    if (isWhole && previousIsWhole) {
      out.push({ line, text: words.join(' ') });
      words = [];
    }
    words.push(word);
    previousIsWhole = isWhole;
  }
  if (words.length) out.push({ line, text: words.join(' ') });
}

/** Pasted text → its codes in order, each with its line number. Blank lines and cells give nothing. */
export function splitPastedText(text: string): PastedCode[] {
  const codes: PastedCode[] = [];
  pastedLines(text).forEach((lineText, i) => {
    splitPastedLine(lineText, i + 1, codes);
  });
  return codes;
}

/** A pasted text's lines, for a caller that reads them a few at a time (splitPastedLine). */
export const pastedLines = (text: string): string[] => text.split(LINE_BREAK);

/** The codes of one line (`line` counts from 1), added to `into`. */
export function splitPastedLine(lineText: string, line: number, into: PastedCode[]): void {
  for (const cell of lineText.split(CELL_BREAK)) splitWords(cell, line, into);
}

export interface PastedRejection {
  line: number;
  raw: string;
  reason: IsbnRejectionReason;
}

export interface PastedList {
  /** Unique canonical ISBN-13s, in first-seen order. */
  isbns: string[];
  /** Lines holding at least one code. */
  linesRead: number;
  /** Codes naming an ISBN already seen (ISBN-10 and ISBN-13 of one book are the same ISBN). */
  duplicates: number;
  /** One entry per code that is not an ISBN, up to the reader's limit. */
  rejections: PastedRejection[];
  /** Codes that are not an ISBN, past the limit: counted, not listed. */
  rejectionsNotKept: number;
}

/** Collects codes one at a time, so a caller can pause between them (the API does, on big lists). */
export class PastedListReader {
  private readonly seen = new Set<string>();
  private lastLine = 0;
  /** Rejections listed at most (a paste of junk must not become millions of stored rows). */
  private readonly rejected: BoundedRejections<PastedRejection>;
  readonly list: PastedList;

  constructor(maxRejectionsKept = Number.POSITIVE_INFINITY) {
    this.rejected = new BoundedRejections(maxRejectionsKept);
    this.list = { isbns: [], linesRead: 0, duplicates: 0, rejections: this.rejected.kept, rejectionsNotKept: 0 };
  }

  /** Codes arrive in line order (as splitPastedText gives them). */
  add(code: PastedCode): void {
    if (code.line !== this.lastLine) this.list.linesRead++;
    this.lastLine = code.line;
    const cell = normalizeIsbnCell(code.text);
    for (const isbn of cell.isbns) {
      if (this.seen.has(isbn)) this.list.duplicates++;
      else {
        this.seen.add(isbn);
        this.list.isbns.push(isbn);
      }
    }
    for (const { raw, reason } of cell.rejections) this.rejected.add({ line: code.line, raw, reason });
    this.list.rejectionsNotKept = this.rejected.notKept;
  }
}

/** Why a list cannot make a job (the same message in the dialog and in the API's 422), or null. */
export function pastedListProblem(list: PastedList): string | null {
  if (list.isbns.length > 0) return null;
  return list.rejections.length + list.rejectionsNotKept > 0 ? PASTE_MESSAGES.noneRecognised : PASTE_MESSAGES.empty;
}

export function readPastedList(text: string): PastedList {
  const reader = new PastedListReader();
  for (const code of splitPastedText(text)) reader.add(code);
  return reader.list;
}
