// ISBN normalisation for spreadsheet cells (docs/features/jobs.md, ISBNs).
// Canonical form everywhere in the product: ISBN-13, digits only. We never guess: a value is
// accepted only when its check digit validates, otherwise the cell is reported with a reason a
// book dealer can act on.
import { must } from './must.ts';

/** Why a cell (or part of one) was not accepted. Shared by the parser, the tests and the UI. */
export const ISBN_REJECTION = {
  isbn10Check: 'Invalid ISBN-10 check digit',
  isbn13Check: 'Invalid ISBN-13 check digit',
  ismn: 'ISMN (979-0…, printed music), not a book ISBN',
  notBookland: 'Not an ISBN-13: must start with 978 or 979',
  scientific: 'Shown in scientific notation (like 9.78049E+12), so digits are lost: format the column as Text and export again',
  truncated: '12 digits: an ISBN-13 with a digit missing',
  upc: 'UPC barcode, which gives no certain ISBN: scan or type the barcode starting 978 or 979 instead',
  nineDigits: '9 digits: not an ISBN-10 even with the leading 0 restored',
  tooShort: 'Too few digits for an ISBN',
  wrongLength: 'Wrong number of digits (an ISBN has 10 or 13)',
  xPosition: 'X is only allowed as the last character of an ISBN-10',
  badCharacters: 'Contains letters or symbols that are not part of an ISBN',
  notAnIsbn: 'Not an ISBN',
  decimal: 'A number with decimals, not an ISBN',
  date: 'A date, not an ISBN',
  boolean: 'TRUE/FALSE, not an ISBN',
} as const;

export type IsbnRejectionReason = (typeof ISBN_REJECTION)[keyof typeof ISBN_REJECTION];

export interface IsbnRejection {
  /** The offending text: the whole cell, or the part of it when a cell holds several values. */
  raw: string;
  reason: IsbnRejectionReason;
}

export interface NormalizedIsbnCell {
  /** Canonical ISBN-13s, in cell order, each once. */
  isbns: string[];
  rejections: IsbnRejection[];
}

export type IsbnCellValue = string | number | boolean | Date | null | undefined;

// ---------------------------------------------------------------------------------------------
// Check digits

const DIGITS_9_CHECK = /^\d{9}[\dX]$/;
const DIGITS_13 = /^\d{13}$/;

function isbn10CheckChar(first9: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (10 - i) * (first9.charCodeAt(i) - 48);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

function isbn13CheckChar(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (first12.charCodeAt(i) - 48);
  return String((10 - (sum % 10)) % 10);
}

/** 10 characters, digits with an optional final X (either case), mod-11 check. */
export function isValidIsbn10(value: string): boolean {
  const v = value.toUpperCase();
  return DIGITS_9_CHECK.test(v) && isbn10CheckChar(v) === v[9];
}

/** 13 digits, 978/979 prefix (but not 9790, which is ISMN), mod-10 check. */
export function isValidIsbn13(value: string): boolean {
  return (
    DIGITS_13.test(value) &&
    (value.startsWith('978') || value.startsWith('979')) &&
    !value.startsWith('9790') &&
    isbn13CheckChar(value) === value[12]
  );
}

/**
 * UPC-A: 12 digits, the EAN-13 check of the same code with a leading 0. Mass-market paperbacks
 * carry one, but it encodes the publisher's product (price point) code, not the book: the ISBN is
 * printed beside it, so a UPC alone never maps to an ISBN with certainty.
 */
export function isValidUpcA(value: string): boolean {
  return /^\d{12}$/.test(value) && isbn13CheckChar(`0${value.slice(0, 11)}`) === value[11];
}

/** ISBN-10 → ISBN-13: prefix 978 and recompute the check digit. Throws on an invalid ISBN-10. */
export function isbn10To13(isbn10: string): string {
  if (!isValidIsbn10(isbn10)) throw new RangeError(`Not a valid ISBN-10: ${isbn10}`);
  const first12 = `978${isbn10.slice(0, 9)}`;
  return first12 + isbn13CheckChar(first12);
}

/** ISBN-13 → ISBN-10, or null for 979 ISBNs, which have no ISBN-10. Throws on an invalid ISBN-13. */
export function isbn13To10(isbn13: string): string | null {
  if (!isValidIsbn13(isbn13)) throw new RangeError(`Not a valid ISBN-13: ${isbn13}`);
  if (!isbn13.startsWith('978')) return null;
  const first9 = isbn13.slice(3, 12);
  return first9 + isbn10CheckChar(first9);
}

// ---------------------------------------------------------------------------------------------
// One candidate value (digits with at most a final X) → ISBN-13 or a reason

type Classified = { isbn: string } | { reason: IsbnRejectionReason };

/** Excel shows 6 significant digits in scientific notation, leaving 7 zeros at the end. */
const LOST_DIGITS = '0000000';

/**
 * `padLeadingZeros`: Excel stores ISBN-10s as numbers and drops their leading zeros (0-451… →
 * 9 digits, McGraw-Hill 0-07-… → 8, HarperCollins UK 0-00-… → 7). Only a whole cell may be
 * restored, and only when the ISBN-10 check then validates.
 */
function classify(s: string, padLeadingZeros: boolean): Classified {
  const x = s.indexOf('X');
  if (x !== -1 && (x !== s.length - 1 || s.length !== 10)) return { reason: ISBN_REJECTION.xPosition };
  switch (s.length) {
    case 10:
      return isValidIsbn10(s) ? { isbn: isbn10To13(s) } : { reason: ISBN_REJECTION.isbn10Check };
    case 13:
      // 9.78049E+12 typed back into a cell becomes 9780490000000: the digits are gone.
      if (s.endsWith(LOST_DIGITS)) return { reason: ISBN_REJECTION.scientific };
      if (s.startsWith('9790')) return { reason: ISBN_REJECTION.ismn };
      if (s.startsWith('0') && isValidUpcA(s.slice(1))) return { reason: ISBN_REJECTION.upc }; // a UPC written as EAN-13
      if (!s.startsWith('978') && !s.startsWith('979')) return { reason: ISBN_REJECTION.notBookland };
      return isValidIsbn13(s) ? { isbn: s } : { reason: ISBN_REJECTION.isbn13Check };
    case 15: // 13 + 2-digit EAN add-on run together
    case 18: // 13 + 5-digit price add-on run together
      return s.startsWith('978') || s.startsWith('979') ? classify(s.slice(0, 13), false) : { reason: ISBN_REJECTION.wrongLength };
    case 14:
      // GTIN-14 as distributors' data lists items: a leading 0 in front of the EAN-13 is the same item.
      if (s.startsWith('0') && isValidIsbn13(s.slice(1))) return { isbn: s.slice(1) };
      return isValidUpcA(s.slice(0, 12)) ? { reason: ISBN_REJECTION.upc } : { reason: ISBN_REJECTION.wrongLength }; // UPC + 2-digit add-on
    case 17: // UPC + 5-digit add-on run together
      return isValidUpcA(s.slice(0, 12)) ? { reason: ISBN_REJECTION.upc } : { reason: ISBN_REJECTION.wrongLength };
    case 12:
      // 978/979 + 9 digits is an ISBN-13 missing its check digit (or another digit): never guessed.
      if (!s.startsWith('978') && !s.startsWith('979') && isValidUpcA(s)) return { reason: ISBN_REJECTION.upc };
      return { reason: ISBN_REJECTION.truncated };
    case 11:
      // A UPC whose leading 0 a spreadsheet dropped (only a whole cell may be restored).
      return padLeadingZeros && isValidUpcA(`0${s}`) ? { reason: ISBN_REJECTION.upc } : { reason: ISBN_REJECTION.wrongLength };
    case 9:
    case 8:
    case 7: {
      const padded = s.padStart(10, '0');
      if (padLeadingZeros && isValidIsbn10(padded)) return { isbn: isbn10To13(padded) };
      return { reason: s.length === 9 ? ISBN_REJECTION.nineDigits : ISBN_REJECTION.tooShort };
    }
    default:
      return { reason: s.length < 10 ? ISBN_REJECTION.tooShort : ISBN_REJECTION.wrongLength };
  }
}

// ---------------------------------------------------------------------------------------------
// Cell text → tokens

// Whole-cell shapes that must be recognised before any splitting.
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?\s*E\s*[+-]?\d+$/i;
const FLOAT_INTEGER = /^(\d+)\.0+$/; // "9780131457577.0" from pandas / openpyxl
const THOUSANDS = /^\d{1,3}(?:,\d{3})+(?:\.0+)?$/; // "9,780,131,457,577" from a #,##0 format
// Several values in one cell.
const PIECE_SEPARATORS = /[;,/|\r\n\u2028\u2029]+/;
// "ISBN", "ISBN:", "ISBN-13:", "isbn 10", "EAN:"; the 10/13 must not be the start of the number.
const PREFIX = /\b(?:ISBN|EAN)(?:[\s\u00A0\u202F-]*1[03](?!\d))?\s*[:#.]?/gi;
// Invisible characters that may sit inside a number.
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
// Whitespace of every kind separates tokens (JS \s covers U+00A0, U+2007, U+2009, U+202F).
const WHITESPACE = /\s+/;
// Group separators and wrappers inside a token: hyphens, dashes, minus, dots, quotes, brackets.
const TOKEN_NOISE = /[-\u2010-\u2015\u2212.'"`´‘’“”()[\]{}<>]/g;
const DIGIT_TOKEN = /^(?:\d+X?|X)$/; // X only at the end; a lone X is the check of "0 8044 2957 X"
const DIGITS_AND_X = /^[\dX]+$/;
const HAS_DIGIT = /\d/;
const HAS_LETTER = /\p{L}/u;

interface Token {
  text: string; // original text, for the report
  chars: string; // digits and X only
}

interface Group {
  raw: string;
  value: Classified;
}

/** Split a piece into whitespace tokens; words without digits ("pbk", "hardcover") are dropped. */
function tokenize(piece: string): { tokens: Token[]; bad: string | null; xMisplaced: boolean } {
  const tokens: Token[] = [];
  let bad: string | null = null;
  let xMisplaced = false;
  for (const text of piece.split(WHITESPACE)) {
    if (text === '') continue;
    const chars = text.replace(TOKEN_NOISE, '').toUpperCase();
    if (chars === '') continue;
    if (DIGIT_TOKEN.test(chars)) tokens.push({ text, chars });
    else if (HAS_DIGIT.test(chars)) {
      bad ??= text;
      if (DIGITS_AND_X.test(chars)) xMisplaced = true;
    }
  }
  return { tokens, bad, xMisplaced };
}

/** A run of tokens that forms one complete, valid ISBN (an add-on may follow a 13-digit one). */
function validRun(tokens: Token[], from: number, to: number): string | null {
  let chars = '';
  for (const t of tokens.slice(from, to)) chars += t.chars;
  const n = chars.length;
  if (n !== 10 && n !== 13 && n !== 15 && n !== 18) return null;
  const c = classify(chars, false);
  return 'isbn' in c ? c.isbn : null;
}

const MAX_TOKENS_FOR_SPLIT = 40;

/**
 * Whitespace is ambiguous: a group separator ("978 0 13 145757 7"), an add-on separator
 * ("9780451161352 51599") or a separator between whole ISBNs. Accept a split only when every
 * part is a valid ISBN; otherwise report what is there without guessing.
 */
function splitByWhitespace(tokens: Token[]): Group[] {
  const n = tokens.length;
  if (n > 1 && n <= MAX_TOKENS_FOR_SPLIT) {
    // best[i]: fewest groups covering tokens[0..i) with every group valid.
    const best: (number | null)[] = new Array(n + 1).fill(null);
    const cut: number[] = new Array(n + 1).fill(0);
    const isbnAt: string[] = new Array(n + 1).fill('');
    best[0] = 0;
    for (let i = 1; i <= n; i++) {
      for (let j = 0; j < i; j++) {
        const before = best[j] ?? null;
        const current = best[i] ?? null;
        if (before === null || (current !== null && before + 1 >= current)) continue;
        const isbn = validRun(tokens, j, i);
        if (isbn !== null) {
          best[i] = before + 1;
          cut[i] = j;
          isbnAt[i] = isbn;
        }
      }
    }
    if (best[n] !== null) {
      const groups: Group[] = [];
      for (let i = n; i > 0; ) {
        const from = must(cut[i], 'a cut for every covered prefix');
        const raw = tokens
          .slice(from, i)
          .map((t) => t.text)
          .join(' ');
        groups.unshift({ raw, value: { isbn: must(isbnAt[i], 'an ISBN for every covered prefix') } });
        i = from;
      }
      return groups;
    }
    // Several complete-looking values side by side: judge each on its own.
    if (tokens.every((t) => t.chars.length >= 10)) {
      return tokens.map((t) => ({ raw: t.text, value: classify(t.chars, false) }));
    }
  }
  const chars = tokens.map((t) => t.chars).join('');
  return [{ raw: tokens.map((t) => t.text).join(' '), value: classify(chars, true) }];
}

function normalizePiece(piece: string): Group[] {
  const text = piece.trim();
  if (SCIENTIFIC.test(text)) return [{ raw: text, value: { reason: ISBN_REJECTION.scientific } }];
  const floatDigits = FLOAT_INTEGER.exec(text)?.[1];
  if (floatDigits !== undefined) return [{ raw: text, value: classify(floatDigits, true) }];
  const { tokens, bad, xMisplaced } = tokenize(text.replace(PREFIX, ' '));
  if (bad !== null) {
    // A stray word with digits ("vol2") next to a valid ISBN is noise; alone it is an error.
    const groups = tokens.length > 0 ? splitByWhitespace(tokens) : [];
    if (groups.length > 0 && groups.every((g) => 'isbn' in g.value)) return groups;
    return [{ raw: text, value: { reason: xMisplaced ? ISBN_REJECTION.xPosition : ISBN_REJECTION.badCharacters } }];
  }
  return tokens.length > 0 ? splitByWhitespace(tokens) : [];
}

function dateText(d: Date): string {
  return Number.isNaN(d.getTime()) ? String(d) : d.toISOString().slice(0, 10);
}

function fromNumber(n: number): NormalizedIsbnCell {
  if (!Number.isFinite(n) || n < 0) return reject(String(n), ISBN_REJECTION.notAnIsbn);
  if (!Number.isInteger(n)) return reject(String(n), ISBN_REJECTION.decimal);
  // Beyond 2^53 (an 18-digit ISBN + add-on) BigInt gives the digits of the stored float; Excel
  // keeps 15 significant digits, so the 13 that matter are exact.
  const digits = Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
  const c = classify(digits, true);
  return 'isbn' in c ? { isbns: [c.isbn], rejections: [] } : reject(digits, c.reason);
}

function reject(raw: string, reason: IsbnRejectionReason): NormalizedIsbnCell {
  return { isbns: [], rejections: [{ raw, reason }] };
}

/**
 * One spreadsheet cell → the ISBN-13s it holds and the parts that could not be used.
 * Blank cells (and cells of pure punctuation such as "-") yield nothing.
 */
export function normalizeIsbnCell(raw: IsbnCellValue): NormalizedIsbnCell {
  if (raw === null || raw === undefined) return { isbns: [], rejections: [] };
  if (typeof raw === 'number') return fromNumber(raw);
  if (typeof raw === 'boolean') return reject(raw ? 'TRUE' : 'FALSE', ISBN_REJECTION.boolean);
  if (raw instanceof Date) return reject(dateText(raw), ISBN_REJECTION.date);

  const text = raw.replace(INVISIBLE, '').trim();
  if (text === '') return { isbns: [], rejections: [] };
  if (!HAS_DIGIT.test(text)) {
    return HAS_LETTER.test(text) ? reject(text, ISBN_REJECTION.notAnIsbn) : { isbns: [], rejections: [] };
  }
  if (SCIENTIFIC.test(text)) return reject(text, ISBN_REJECTION.scientific);
  const whole = THOUSANDS.test(text) ? text.replace(/,/g, '') : text;

  const groups: Group[] = [];
  for (const piece of whole.split(PIECE_SEPARATORS)) groups.push(...normalizePiece(piece));

  const out: NormalizedIsbnCell = { isbns: [], rejections: [] };
  for (const g of groups) {
    if ('isbn' in g.value) {
      // "ISBN-10: 0131457578, ISBN-13: 9780131457577" is one book, not a duplicate row.
      if (!out.isbns.includes(g.value.isbn)) out.isbns.push(g.value.isbn);
    } else {
      out.rejections.push({ raw: groups.length === 1 ? text : g.raw, reason: g.value.reason });
    }
  }
  return out;
}
