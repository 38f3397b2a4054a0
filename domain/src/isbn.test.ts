import { describe, expect, it } from 'vitest';
import {
  ISBN_REJECTION as R,
  isbn10To13,
  isbn13To10,
  isValidIsbn10,
  isValidIsbn13,
  isValidUpcA,
  normalizeIsbnCell,
  type IsbnCellValue,
  type IsbnRejectionReason,
} from './isbn.ts';

describe('check digits', () => {
  it.each(['0843610727', '080442957X', '080442957x', '043942089X', '0451161351', '0131457578', '1593275846'])('accepts ISBN-10 %s', (s) =>
    expect(isValidIsbn10(s)).toBe(true),
  );
  it.each([
    ['0843610728', 'wrong check'],
    ['08436107X7', 'X not last'],
    ['X843610727', 'X first'],
    ['084361072', 'too short'],
    ['08436107270', 'too long'],
    ['0804429570', '0 where X is due'],
  ])('rejects ISBN-10 %s (%s)', (s) => expect(isValidIsbn10(s)).toBe(false));

  it.each(['9781861972712', '9780131457577', '9780486229874', '9791032305690', '9798602405644'])('accepts ISBN-13 %s', (s) =>
    expect(isValidIsbn13(s)).toBe(true),
  );
  it.each([
    ['9781861972713', 'wrong check'],
    ['9790260000438', 'ISMN, though its EAN check is right'],
    ['5012345678900', 'not 978/979'],
    ['978186197271', 'too short'],
    ['978186197271X', 'X in an ISBN-13'],
  ])('rejects ISBN-13 %s (%s)', (s) => expect(isValidIsbn13(s)).toBe(false));

  it.each(['036000291452', '070999002255', '012345678905'])('accepts UPC-A %s', (s) => expect(isValidUpcA(s)).toBe(true));
  it.each([
    ['036000291453', 'wrong check'],
    ['03600029145', 'too short'],
    ['9780306406157', 'an EAN-13'],
  ])('rejects UPC-A %s (%s)', (s) => expect(isValidUpcA(s)).toBe(false));

  it('converts 10 → 13 recomputing the check digit', () => {
    expect(isbn10To13('0131457578')).toBe('9780131457577');
    expect(isbn10To13('080442957X')).toBe('9780804429573');
    expect(isbn10To13('043942089x')).toBe('9780439420891');
    expect(() => isbn10To13('0131457579')).toThrow(RangeError);
  });

  it('converts 13 → 10, with null for 979', () => {
    expect(isbn13To10('9780131457577')).toBe('0131457578');
    expect(isbn13To10('9780804429573')).toBe('080442957X');
    expect(isbn13To10('9791032305690')).toBeNull();
    expect(isbn13To10('9798602405644')).toBeNull();
    expect(() => isbn13To10('9780131457578')).toThrow(RangeError);
  });

  it('round-trips', () => {
    for (const s of ['0843610727', '080442957X', '0451161351', '0007136587', '0070131511']) {
      expect(isbn13To10(isbn10To13(s))).toBe(s);
    }
  });
});

type Row = [label: string, cell: IsbnCellValue, isbns: string[], reasons?: IsbnRejectionReason[]];

// Real-world cells as dealers' spreadsheets hold them → canonical ISBN-13s and/or rejections.
const CELLS: Row[] = [
  // plain values
  ['ISBN-13 text', '9780131457577', ['9780131457577']],
  ['ISBN-13 number', 9780131457577, ['9780131457577']],
  ['ISBN-13 float from pandas (number)', 9780131457577.0, ['9780131457577']],
  ['ISBN-13 float from pandas (text)', '9780131457577.0', ['9780131457577']],
  ['ISBN-13 float with .00', '9780486229874.00', ['9780486229874']],
  ['ISBN-10 text', '0843610727', ['9780843610727']],
  ['ISBN-10 with X', '080442957X', ['9780804429573']],
  ['ISBN-10 with lowercase x', '043942089x', ['9780439420891']],
  ['ISBN-10 float text', '0131457578.0', ['9780131457577']],
  ['979-10 (France)', '9791032305690', ['9791032305690']],
  ['979-8 (USA)', '979-8-6024-0564-4', ['9798602405644']],
  ['979-11 (Korea)', '979-11-87192-59-6', ['9791187192596']],
  ['surrounding spaces', '   9781861972712  ', ['9781861972712']],
  ['leading apostrophe (typed as text)', "'0451161351", ['9780451161352']],
  ['quoted', '"9781861972712"', ['9781861972712']],

  // separators
  ['hyphens', '978-0-13-145757-7', ['9780131457577']],
  ['hyphenated ISBN-10 with X', '0-8044-2957-X', ['9780804429573']],
  ['spaces between groups', '978 0 13 145757 7', ['9780131457577']],
  ['spaces in ISBN-10 with lone X', '0 8044 2957 X', ['9780804429573']],
  ['en and em dashes', '978–0–13–145757—7', ['9780131457577']],
  ['non-breaking hyphen and minus sign', '978\u20110\u201113\u2212145757\u22127', ['9780131457577']],
  ['non-breaking spaces', '978\u00A00\u00A013\u202F145757\u202F7', ['9780131457577']],
  ['soft hyphens', '978\u00AD0\u00AD13\u00AD145757\u00AD7', ['9780131457577']],
  ['zero-width space', '97801314\u200B57577', ['9780131457577']],
  ['dots between groups', '978.0.13.145757.7', ['9780131457577']],
  ['thousands separators from a #,##0 format', '9,780,131,457,577', ['9780131457577']],

  // prefixes and words
  ['ISBN prefix', 'ISBN 9780131457577', ['9780131457577']],
  ['ISBN-13: prefix', 'ISBN-13: 978-0-13-145757-7', ['9780131457577']],
  ['ISBN-10: prefix, lowercase', 'isbn-10: 0-8044-2957-x', ['9780804429573']],
  ['ISBN: prefix without space', 'ISBN:9781861972712', ['9781861972712']],
  ['ISBN13 prefix', 'ISBN13 9780486229874', ['9780486229874']],
  ['ISBN prefix glued to an ISBN-10 starting 13', 'ISBN 1328915921', ['9781328915924']],
  ['EAN prefix', 'EAN: 9780486229874', ['9780486229874']],
  ['binding note', '9780131457577 (pbk.)', ['9780131457577']],
  ['edition note with digits', '9780131457577 (2nd ed.)', ['9780131457577']],

  // EAN add-ons
  ['5-digit price add-on after a space', '9780451161352 51599', ['9780451161352']],
  ['5-digit add-on run together (18 digits)', '978045116135251599', ['9780451161352']],
  // biome-ignore lint/correctness/noPrecisionLoss: deliberate, a spreadsheet cell holding this number loses the same digits
  ['5-digit add-on as a number', 978045116135251599, ['9780451161352']],
  ['2-digit add-on', '9780451161352 05', ['9780451161352']],
  ['hyphenated ISBN plus add-on', '978-0-451-16135-2 51599', ['9780451161352']],
  ['5-digit add-on after a hyphen (scanner output)', '9780306406157-51299', ['9780306406157']],
  ['2-digit add-on run together (15 digits)', '978030640615705', ['9780306406157']],
  ['GTIN-14: a leading 0 before the ISBN-13', '09780306406157', ['9780306406157']],

  // UPCs: the code of the product (a mass-market paperback's price point), never of the book
  ['UPC-A', '036000291452', [], [R.upc]],
  ['UPC-A of a mass-market paperback with its 5-digit add-on', '0 70999 00225 5 51299', [], [R.upc]],
  ['UPC-A with a 5-digit add-on run together', '07099900225551299', [], [R.upc]],
  ['UPC-A with a 2-digit add-on', '036000291452 12', [], [R.upc]],
  ['UPC-A written as an EAN-13 (leading 0)', '0036000291452', [], [R.upc]],
  ['UPC-A whose leading 0 a spreadsheet dropped (number)', 36000291452, [], [R.upc]],
  ['12 digits, neither a UPC nor 978/979', '036000291453', [], [R.truncated]],
  ['978 + 9 digits: an ISBN-13 missing its check digit, not a UPC', '978030640615', [], [R.truncated]],
  ['17 digits that are no UPC with an add-on', '12345678901334567', [], [R.wrongLength]],

  // several ISBNs in one cell
  ['semicolon list', '0131457578; 9780306406157', ['9780131457577', '9780306406157']],
  ['slash list', '9781861972712/9780486229874', ['9781861972712', '9780486229874']],
  ['comma list', '9781861972712, 0843610727', ['9781861972712', '9780843610727']],
  ['pipe list', '9781861972712|0843610727', ['9781861972712', '9780843610727']],
  ['newline list', '0843610727\n9781861972712', ['9780843610727', '9781861972712']],
  ['CRLF list', '0843610727\r\n9781861972712', ['9780843610727', '9781861972712']],
  ['whitespace between complete ISBNs', '9780131457577 9780306406157', ['9780131457577', '9780306406157']],
  ['two ISBN-10s separated by a space', '0131457578 0843610727', ['9780131457577', '9780843610727']],
  ['both forms of one book are one ISBN', 'ISBN-10: 0131457578, ISBN-13: 978-0131457577', ['9780131457577']],
  ['one good, one bad', '9780131457577; 9780131457578', ['9780131457577'], [R.isbn13Check]],
  ['one good, one bad, space separated', '9780131457577 9780306406158', ['9780131457577'], [R.isbn13Check]],

  // Excel mangling
  ['lost leading zero (number)', 451161351, ['9780451161352']],
  ['lost leading zero (text from CSV)', '843610727', ['9780843610727']],
  ['lost two zeros (McGraw-Hill 0-07-)', 70131511, ['9780070131514']],
  ['lost three zeros (HarperCollins 0-00-)', 7136587, ['9780007136582']],
  ['9 digits that do not validate with a 0', 451161352, [], [R.nineDigits]],
  ['scientific notation', '9.78049E+12', [], [R.scientific]],
  ['scientific notation, lowercase with comma decimal', '9,78049e+12', [], [R.scientific]],
  ['scientific notation without decimals', '9E+12', [], [R.scientific]],
  ['scientific notation typed back as a number', 9780490000000, [], [R.scientific]],
  ['scientific notation typed back as text', '9781860000000', [], [R.scientific]],
  ['12 digits (truncated ISBN-13)', '978013145757', [], [R.truncated]],
  ['12 digits as a number', 978013145757, [], [R.truncated]],
  ['number with decimals', 9780131457577.5, [], [R.decimal]],
  ['date cell', new Date(Date.UTC(2021, 2, 4)), [], [R.date]],
  ['boolean cell', true, [], [R.boolean]],

  // wrong values
  ['ISBN-13 wrong check', '9780131457578', [], [R.isbn13Check]],
  ['ISBN-13 with old ISBN-10 check kept', '978-0-13-145757-8', [], [R.isbn13Check]],
  ['ISBN-10 wrong check', '0131457579', [], [R.isbn10Check]],
  ['ISBN-10 with 0 where X is due', '0804429570', [], [R.isbn10Check]],
  ['X in the middle', '08044X2957', [], [R.xPosition]],
  ['X on an ISBN-13', '978080442957X', [], [R.xPosition]],
  ['ISMN', '979-0-2600-0043-8', [], [R.ismn]],
  ['grocery EAN', '5012345678900', [], [R.notBookland]],
  ['letters inside', '978013145757a', [], [R.badCharacters]],
  ['11 digits', '97801314575', [], [R.wrongLength]],
  ['14 digits', '97801314575770', [], [R.wrongLength]],
  ['short number', 12345, [], [R.tooShort]],
  ['18 digits not starting 978/979', '123456789012345678', [], [R.wrongLength]],
  ['text without digits', 'N/A', [], [R.notAnIsbn]],
  ['a title in the ISBN column', 'The Hobbit', [], [R.notAnIsbn]],
  ['negative number', -9780131457577, [], [R.notAnIsbn]],

  // nothing at all
  ['empty string', '', []],
  ['spaces only', '   ', []],
  ['non-breaking spaces only', '\u00A0\u202F', []],
  ['dash placeholder', '-', []],
  ['null', null, []],
  ['undefined', undefined, []],
];

describe('normalizeIsbnCell', () => {
  it('has a big enough table', () => expect(CELLS.length).toBeGreaterThanOrEqual(60));

  it.each(CELLS)('%s', (_label, cell, isbns, reasons = []) => {
    const out = normalizeIsbnCell(cell);
    expect(out.isbns).toEqual(isbns);
    expect(out.rejections.map((r) => r.reason)).toEqual(reasons);
  });

  it('keeps the whole cell as raw text for a single bad value', () => {
    expect(normalizeIsbnCell(' ISBN-13: 978-0-13-145757-8 ').rejections).toEqual([
      { raw: 'ISBN-13: 978-0-13-145757-8', reason: R.isbn13Check },
    ]);
    expect(normalizeIsbnCell(978013145757).rejections).toEqual([{ raw: '978013145757', reason: R.truncated }]);
    expect(normalizeIsbnCell(new Date(Date.UTC(2021, 2, 4))).rejections[0]?.raw).toBe('2021-03-04');
  });

  it('names only the bad part when a cell holds several values', () => {
    expect(normalizeIsbnCell('9780131457577; 0131457579; 9.78049E+12').rejections).toEqual([
      { raw: '0131457579', reason: R.isbn10Check },
      { raw: '9.78049E+12', reason: R.scientific },
    ]);
  });

  it('never turns an invalid spaced ISBN-13 into an ISBN-10 hidden inside it', () => {
    // "978 0131457578" contains the valid ISBN-10 0131457578; the dealer meant one ISBN-13.
    expect(normalizeIsbnCell('978 0131457578')).toEqual({
      isbns: [],
      rejections: [{ raw: '978 0131457578', reason: R.isbn13Check }],
    });
  });

  it('gives every reason as a short sentence', () => {
    for (const reason of Object.values(R)) {
      expect(reason.length).toBeLessThan(120);
      expect(reason).toMatch(/^[A-Z0-9]/);
    }
  });
});
