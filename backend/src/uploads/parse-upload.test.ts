import { ISBN_REJECTION as R, normalizeIsbnCell } from '@app/domain/isbn';
import { readdirSync, readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseUpload, type ParsedUpload, type UploadLimits, type UploadReport } from './parse-upload.ts';
import { ROOMY_UPLOAD_LIMITS, UPLOAD_FIXTURES, uploadError } from '../../test/helpers/uploads.ts';

const fixture = (name: string) => readFileSync(new URL(name, UPLOAD_FIXTURES));

const parse = (data: Buffer | string, filename: string, limits: Partial<UploadLimits> = {}): ParsedUpload =>
  parseUpload(typeof data === 'string' ? Buffer.from(data, 'utf8') : data, filename, { ...ROOMY_UPLOAD_LIMITS, ...limits });

const report = (r: Partial<UploadReport> & Pick<UploadReport, 'sheet' | 'column' | 'rows_read' | 'isbns_accepted'>): UploadReport => ({
  header_row: true,
  duplicates_merged: 0,
  cells_rejected: 0,
  rejections_not_kept: 0,
  ...r,
});

// ---------------------------------------------------------------------------------------------
// Fixtures written by LibreOffice (make-fixtures.sh)

const MIXED_ISBNS = [
  '9780131457577',
  '9780306406157',
  '9780804429573',
  '9780451161352',
  '9781861972712',
  '9780201633610',
  '9780596520687',
  '9791032305690',
  '9781593275846',
  '9780060934347',
];
const MIXED_REJECTIONS = [
  { sheet: 'Books', row_number: 4, raw_value: '9.78049E+12', reason: R.scientific },
  { sheet: 'Books', row_number: 10, raw_value: '9780131457578', reason: R.isbn13Check },
  { sheet: 'Books', row_number: 13, raw_value: '978013145757', reason: R.truncated },
  { sheet: 'Books', row_number: 17, raw_value: '0131457579', reason: R.isbn10Check },
];
const MIXED_REPORT = report({ sheet: 'Books', column: 'ISBN', rows_read: 16, isbns_accepted: 10, duplicates_merged: 2, cells_rejected: 4 });

/** The same sheet saved as .xlsx and as .xls. */
const SECOND_SHEET = {
  isbns: ['9780060934347', '9780070131514', '9788175257665'],
  report: report({ sheet: 'Inventory', column: 'EAN', rows_read: 3, isbns_accepted: 3 }),
};

const GOOD_FIXTURES: Record<string, { isbns: string[]; report: UploadReport; rejections?: ParsedUpload['rejections'] }> = {
  'numeric-isbn13.xlsx': {
    isbns: ['9780131457577', '9780306406157', '9781861972712', '9791032305690', '9798602405644'],
    report: report({ sheet: 'Sheet1', column: 'ISBN', rows_read: 5, isbns_accepted: 5 }),
  },
  'excel-mangled.xlsx': {
    isbns: [
      '9780486229874', // number
      '9780804429573', // 0-8044-2957-X
      '9780439420891', // 043942089x
      '9780451161352', // 451161351, lost its leading zero (the add-on row repeats it)
      '9780007136582', // 7136587, lost three zeros
      '9780843610727', // 0843610727 as text
      '9780131457577', // "9780131457577.0"
      '9781554042951', // ISBN-13: prefix
      '9780071393720', // first of two in one cell
      '9780201633610', // second of two in one cell
    ],
    report: report({ sheet: 'Books', column: 'Isbn_13', rows_read: 11, isbns_accepted: 10, duplicates_merged: 1, cells_rejected: 1 }),
    // a date-formatted cell is reported as a date, not as its serial number 44259
    rejections: [{ sheet: 'Books', row_number: 12, raw_value: '2021-03-04', reason: R.date }],
  },
  'no-header.xlsx': {
    isbns: ['9780131457577', '9780804429573', '9781593275846', '9780596520687'],
    report: report({ sheet: 'Sheet1', column: 'A', header_row: false, rows_read: 4, isbns_accepted: 4 }),
  },
  'column-c.xlsx': {
    isbns: ['9780262510875', '9780201633610', '9780201616224'],
    // the "Untitled lot" row has no ISBN: read, skipped silently; blank rows are not read
    report: report({ sheet: 'Stock', column: 'ISBN', rows_read: 4, isbns_accepted: 3 }),
  },
  'unnamed-column.xlsx': {
    isbns: ['9780596520687', '9781593275846', '9780843610727'],
    report: report({ sheet: 'Sheet1', column: 'Code', rows_read: 3, isbns_accepted: 3 }),
  },
  'second-sheet.xlsx': SECOND_SHEET,
  'second-sheet.xls': SECOND_SHEET,
  'formulas.xlsx': {
    isbns: ['9780131457577', '9780306406157', '9780486229874', '9781861972712'],
    report: report({ sheet: 'Sheet1', column: 'ISBN', rows_read: 5, isbns_accepted: 4 }),
  },
  'mixed.xlsx': { isbns: MIXED_ISBNS, report: MIXED_REPORT, rejections: MIXED_REJECTIONS },
  'mixed.xls': { isbns: MIXED_ISBNS, report: MIXED_REPORT, rejections: MIXED_REJECTIONS },
  'comma.csv': {
    isbns: ['9780465026562', '9780804429573', '9780131457577'],
    report: report({ sheet: 'comma', column: 'ISBN', rows_read: 3, isbns_accepted: 3 }),
  },
  'semicolon.csv': {
    isbns: ['9783446429055', '9780306406157', '9780439420891'],
    report: report({ sheet: 'semicolon', column: 'ISBN', rows_read: 3, isbns_accepted: 3 }),
  },
  'tab.csv': {
    isbns: ['9780843610727', '9780441172719'],
    report: report({ sheet: 'tab', column: 'isbn10', rows_read: 2, isbns_accepted: 2 }),
  },
  'utf16.csv': {
    isbns: ['9782070408504', '9784062748681', '9791032305690'],
    report: report({ sheet: 'utf16', column: 'ISBN', rows_read: 3, isbns_accepted: 3 }),
  },
  'windows-1252.csv': {
    isbns: ['9780486229874', '9780451161352'],
    report: report({ sheet: 'windows-1252', column: 'Barcode', rows_read: 2, isbns_accepted: 2 }),
  },
};

const BAD_FIXTURES: Record<string, { status: number; message: RegExp }> = {
  'scientific.csv': {
    status: 422,
    message: /^No valid ISBNs in column "ISBN" of sheet "scientific"\. Row 2 holds "9\.78049E\+12": Shown in scientific notation/,
  },
  'no-isbn.xlsx': { status: 422, message: /^No ISBN column found/ },
  'empty.xlsx': { status: 422, message: /no data/ },
};

describe('LibreOffice fixtures', () => {
  it('covers every file in the fixture folder', () => {
    const files = readdirSync(UPLOAD_FIXTURES).filter((f) => /\.(csv|xlsx?)$/.test(f));
    expect(files.sort()).toEqual([...Object.keys(GOOD_FIXTURES), ...Object.keys(BAD_FIXTURES)].sort());
  });

  it.each(Object.entries(GOOD_FIXTURES))('%s', (name, expected) => {
    const result = parse(fixture(name), name);
    expect(result.isbns).toEqual(expected.isbns);
    expect(result.report).toEqual(expected.report);
    expect(result.rejections).toEqual(expected.rejections ?? []);
  });

  it.each(Object.entries(BAD_FIXTURES))('%s is refused', (name, expected) => {
    const err = uploadError(() => parse(fixture(name), name));
    expect(err.status).toBe(expected.status);
    expect(err.message).toMatch(expected.message);
  });
});

// ---------------------------------------------------------------------------------------------
// Files that must be refused

describe('refused files', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

  it.each(['books.pdf', 'books.ods', 'books.txt', 'books', 'books.xlsx.exe'])('refuses the name %s', (name) => {
    const err = uploadError(() => parse(fixture('mixed.xlsx'), name));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/not supported\. Upload a \.csv, \.xlsx or \.xls file\./);
  });

  it('accepts extensions in any case', () => {
    expect(parse(fixture('mixed.xlsx'), 'BOOKS.XLSX').isbns).toEqual(MIXED_ISBNS);
  });

  it.each([
    ['a PNG renamed .xlsx', PNG, 'photo.xlsx', /not an Excel \.xlsx workbook: it is a PNG image/],
    ['a PNG renamed .xls', PNG, 'photo.xls', /not an Excel \.xls workbook: it is a PNG image/],
    ['a PNG renamed .csv', PNG, 'photo.csv', /not a CSV text file: it is a PNG image/],
    ['a PDF renamed .csv', Buffer.from('%PDF-1.7\n%âãÏÓ\n'), 'scan.csv', /a PDF document/],
    ['an .xlsx renamed .csv', fixture('mixed.xlsx'), 'books.csv', /really an Excel workbook\. Rename it to \.xlsx/],
    ['an .xls renamed .csv', fixture('mixed.xls'), 'books.csv', /really an Excel workbook/],
    ['an .xlsx renamed .xls', fixture('mixed.xlsx'), 'books.xls', /\.xlsx workbook with an \.xls name/],
    ['an .xls renamed .xlsx', fixture('mixed.xls'), 'books.xlsx', /old-style \.xls workbook with an \.xlsx name/],
    ['a CSV renamed .xlsx', fixture('comma.csv'), 'books.xlsx', /not an Excel \.xlsx workbook \(it looks like text/],
    ['a CSV renamed .xls', fixture('comma.csv'), 'books.xls', /not an Excel workbook \(it looks like text or a web page\)/],
  ])('refuses %s', (_label, data, name, message) => {
    const err = uploadError(() => parse(data, name));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(message);
  });

  it('recognises a password-protected workbook', () => {
    // Excel saves an encrypted .xlsx as an OLE2 container with an "EncryptedPackage" stream.
    const ole2 = Buffer.alloc(1024);
    Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(ole2);
    Buffer.from('EncryptedPackage', 'utf16le').copy(ole2, 600);
    expect(uploadError(() => parse(ole2, 'secret.xlsx')).message).toMatch(/password-protected/);
  });

  it.each([
    ['only a zip signature', Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 7)])],
    ['a truncated workbook', fixture('mixed.xlsx').subarray(0, 2000)],
    ['a workbook with its directory cut off', fixture('mixed.xlsx').subarray(0, fixture('mixed.xlsx').length - 30)],
  ])('refuses a corrupt zip: %s', (_label, data) => {
    const err = uploadError(() => parse(data, 'books.xlsx'));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/damaged/);
  });

  it('refuses a corrupt part inside a well-formed zip', () => {
    const data = Buffer.from(fixture('mixed.xlsx'));
    // Overwrite the middle of every compressed part: the directory still adds up.
    for (let i = 200; i < data.length - 1500; i += 50) data.writeUInt8(data.readUInt8(i) ^ 0xff, i);
    const err = uploadError(() => parse(data, 'books.xlsx'));
    expect(err.status).toBe(422);
  });

  it('refuses a zip that is not a workbook', () => {
    const name = Buffer.from('notes.txt');
    const body = deflateRawSync(Buffer.from('hello'));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(5, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(5, 24);
    central.writeUInt16LE(name.length, 28);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(46 + name.length, 12);
    end.writeUInt32LE(30 + name.length + body.length, 16);
    const zip = Buffer.concat([local, name, body, central, name, end]);
    expect(uploadError(() => parse(zip, 'books.xlsx')).message).toMatch(/not an Excel workbook \(it is another kind of ZIP archive\)/);
  });

  it('refuses an empty file', () => {
    for (const name of ['a.csv', 'a.xlsx', 'a.xls']) {
      const err = uploadError(() => parse(Buffer.alloc(0), name));
      expect([err.status, err.message]).toEqual([422, 'The file is empty.']);
    }
  });

  it('refuses a CSV with only blank lines', () => {
    expect(uploadError(() => parse('\r\n\r\n  \r\n', 'a.csv')).message).toBe('The file has no data: every sheet is empty.');
  });

  it('refuses binary content named .csv', () => {
    const junk = Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 31) % 256));
    expect(uploadError(() => parse(junk, 'a.csv')).message).toMatch(/does not contain text/);
  });

  it('refuses a file without any valid ISBN', () => {
    const err = uploadError(() => parse('Title,Price\nKim,4.50\nDune,7\n', 'a.csv'));
    expect([err.status, err.message]).toEqual([
      422,
      'No ISBN column found: no column holds a valid ISBN. Put the ISBNs in one column, ideally under the header "ISBN".',
    ]);
  });

  it('does not mistake a SKU column for ISBNs because one in eleven numbers validates', () => {
    const skus: number[] = [];
    for (let n = 123456700; skus.length < 19; n++) if (normalizeIsbnCell(n).isbns.length === 0) skus.push(n);
    const csv = ['451161351', ...skus].join('\n');
    expect(uploadError(() => parse(csv, 'a.csv')).message).toMatch(/^No ISBN column found/);
    // ...while a real ISBN column with a few bad cells is still found.
    expect(parse(['451161351', '0843610727', '9780131457577', ...skus.slice(0, 5)].join('\n'), 'a.csv').isbns).toHaveLength(3);
  });

  it('explains a named ISBN column that holds nothing usable', () => {
    const err = uploadError(() => parse('Title;ISBN\nKim;\nDune;9780131457578\n', 'list.csv'));
    expect(err.message).toBe('No valid ISBNs in column "ISBN" of sheet "list". Row 3 holds "9780131457578": Invalid ISBN-13 check digit.');
  });
});

// ---------------------------------------------------------------------------------------------
// Limits

describe('limits', () => {
  it('allows exactly maxRows data rows and refuses one more (413)', () => {
    expect(parse(fixture('mixed.xlsx'), 'mixed.xlsx', { maxRows: 16 }).report.rows_read).toBe(16);
    const err = uploadError(() => parse(fixture('mixed.xlsx'), 'mixed.xlsx', { maxRows: 15 }));
    expect([err.status, err.message]).toEqual([413, 'The sheet "Books" has 16 rows; the limit is 15. Split it into smaller files.']);
  });

  it('counts rows in a big CSV', () => {
    const csv = `ISBN\n${'9780131457577\n'.repeat(2500)}`;
    expect(uploadError(() => parse(csv, 'a.csv', { maxRows: 2000 })).message).toBe(
      'The sheet "a" has 2,500 rows; the limit is 2,000. Split it into smaller files.',
    );
  });

  it('allows exactly maxIsbns unique ISBNs and refuses one more (413)', () => {
    expect(parse(fixture('mixed.xlsx'), 'mixed.xlsx', { maxIsbns: 10 }).isbns).toHaveLength(10);
    const err = uploadError(() => parse(fixture('mixed.xlsx'), 'mixed.xlsx', { maxIsbns: 9 }));
    expect([err.status, err.message]).toEqual([
      413,
      'The file lists more than 9 different ISBNs, which is the limit. Split it into smaller files.',
    ]);
  });

  it('refuses a CSV or .xls larger than maxUncompressedBytes (413)', () => {
    const csv = fixture('comma.csv');
    expect(uploadError(() => parse(csv, 'a.csv', { maxUncompressedBytes: csv.length - 1 })).status).toBe(413);
    expect(parse(csv, 'a.csv', { maxUncompressedBytes: csv.length }).isbns).toHaveLength(3);
    expect(uploadError(() => parse(fixture('mixed.xls'), 'a.xls', { maxUncompressedBytes: 1000 })).status).toBe(413);
  });

  it('refuses an .xlsx whose parts expand past maxUncompressedBytes (413)', () => {
    const err = uploadError(() => parse(fixture('mixed.xlsx'), 'a.xlsx', { maxUncompressedBytes: 5000 }));
    expect(err.status).toBe(413);
    expect(err.message).toMatch(/would expand to more than/);
  });
});

// ---------------------------------------------------------------------------------------------
// CSV details and column detection

describe('CSV as Excel writes it', () => {
  it('reads UTF-8 with BOM and CRLF, and keeps leading zeros and long numbers as text', () => {
    const csv = '\uFEFFISBN,Title\r\n0843610727,Kim\r\n9780131457577,SICP\r\n"0451161351",Carrie\r\n';
    const result = parse(csv, 'export.csv');
    expect(result.isbns).toEqual(['9780843610727', '9780131457577', '9780451161352']);
    expect(result.report).toEqual(report({ sheet: 'export', column: 'ISBN', rows_read: 3, isbns_accepted: 3 }));
  });

  it('reads UTF-16 BE with BOM', () => {
    const text = 'ISBN\tTitle\r\n9780131457577\tSICP\r\n';
    const data = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    expect(parse(data, 'unicode.csv').isbns).toEqual(['9780131457577']);
  });

  it('reports pandas floats as accepted and scientific notation as lost, with spreadsheet row numbers', () => {
    const csv = 'isbn,title\n9780131457577.0,a\n\n9.78049E+12,"two\nlines"\n9,78013E+12\n0131457578,dup of row 2\n';
    const result = parse(csv, 'pandas.csv');
    expect(result.isbns).toEqual(['9780131457577']);
    expect(result.rejections).toEqual([
      { sheet: 'pandas', row_number: 4, raw_value: '9.78049E+12', reason: R.scientific },
      // unquoted "9,78013E+12" in a comma file is two cells; the first is what the ISBN column got
      { sheet: 'pandas', row_number: 5, raw_value: '9', reason: R.tooShort },
    ]);
    expect(result.report).toEqual(
      report({ sheet: 'pandas', column: 'isbn', rows_read: 4, isbns_accepted: 1, duplicates_merged: 1, cells_rejected: 2 }),
    );
  });

  it('merges the ISBN-10 and ISBN-13 of one book and counts the duplicates', () => {
    const result = parse('ISBN\n9780131457577\n0-13-145757-8\n978-0-13-145757-7\n080442957X\n', 'dups.csv');
    expect(result.isbns).toEqual(['9780131457577', '9780804429573']);
    expect(result.report.duplicates_merged).toBe(2);
  });

  it('lists every bad part of a cell but counts the cell once', () => {
    const result = parse('ISBN\n"9780131457577; 0131457579; 12345"\n', 'a.csv');
    expect(result.isbns).toEqual(['9780131457577']);
    expect(result.rejections.map((r) => [r.row_number, r.raw_value, r.reason])).toEqual([
      [2, '0131457579', R.isbn10Check],
      [2, '12345', R.tooShort],
    ]);
    expect(result.report.cells_rejected).toBe(1);
  });
});

describe('column and sheet detection', () => {
  it('prefers a named ISBN column over one with more ISBNs', () => {
    const csv = 'Related,ISBN\n9780131457577,9780306406157\n9781861972712,\n9780486229874,\n';
    const result = parse(csv, 'a.csv');
    expect(result.report.column).toBe('ISBN');
    expect(result.isbns).toEqual(['9780306406157']);
  });

  it('picks the named column with the most valid ISBNs', () => {
    const csv = 'ISBN10,ISBN13\n,9780131457577\n,9780306406157\n0843610727,9780843610727\n';
    expect(parse(csv, 'a.csv').report.column).toBe('ISBN13');
  });

  it.each(['isbn', ' ISBN ', 'Isbn13', 'ISBN_13', 'isbn-13', 'ISBN 10', 'EAN', 'ean13', 'EAN-13', 'Barcode', 'UPC', 'ISBN:', 'ISBN #'])(
    'knows the header %j',
    (header) => {
      const result = parse(`Title,${header},Price\nKim,0843610727,4\n`, 'a.csv');
      expect(result.report).toEqual(report({ sheet: 'a', column: header.trim(), rows_read: 1, isbns_accepted: 1 }));
    },
  );

  it('finds an unnamed column by content, with or without a title row', () => {
    expect(parse('Title;Code\nKim;0843610727\nDune;0441172717\n', 'a.csv').report).toEqual(
      report({ sheet: 'a', column: 'Code', rows_read: 2, isbns_accepted: 2 }),
    );
    expect(parse('Kim;0843610727\nDune;0441172717\n', 'a.csv').report).toEqual(
      report({ sheet: 'a', column: 'B', header_row: false, rows_read: 2, isbns_accepted: 2 }),
    );
  });

  it('does not take a first data row for a header', () => {
    // The first row holds only a mangled ISBN and a title: it is data, reported as a rejection.
    const result = parse('9.78049E+12,Kim\n9780131457577,SICP\n9780306406157,Other\n', 'a.csv');
    expect(result.report.header_row).toBe(false);
    expect(result.rejections).toEqual([{ sheet: 'a', row_number: 1, raw_value: '9.78049E+12', reason: R.scientific }]);
  });

  it('finds a named header below title lines and does not report them', () => {
    const csv = 'Stock list;;\nMarch 2024;;\n;;\nTitle;ISBN;Qty\nKim;0843610727;1\nDune;bad;2\n';
    const result = parse(csv, 'a.csv');
    expect(result.report).toEqual(report({ sheet: 'a', column: 'ISBN', rows_read: 2, isbns_accepted: 1, cells_rejected: 1 }));
    expect(result.rejections).toEqual([{ sheet: 'a', row_number: 6, raw_value: 'bad', reason: R.notAnIsbn }]);
  });

  it('skips title lines above an unnamed header', () => {
    const csv = 'Fair stock;\n;\nTitle;Code\nKim;0843610727\nDune;0441172717\n';
    const result = parse(csv, 'a.csv');
    expect(result.report).toEqual(report({ sheet: 'a', column: 'Code', rows_read: 2, isbns_accepted: 2 }));
    expect(result.rejections).toEqual([]);
  });

  it('does not take a first row holding an ISBN in another column for a header', () => {
    // Column B wins (3 ISBNs); row 1 has B blank and a title, but A holds an ISBN: it is data.
    const csv = '0843610727;;Kim\n;9780131457577;SICP\n;9780306406157;X\n;9781861972712;Y\n';
    expect(parse(csv, 'a.csv').report).toEqual(report({ sheet: 'a', column: 'B', header_row: false, rows_read: 4, isbns_accepted: 3 }));
  });

  it('skips blank rows above the header', () => {
    const result = parse('\n\nISBN\n9780131457577\n', 'a.csv');
    expect(result.report).toEqual(report({ sheet: 'a', column: 'ISBN', rows_read: 1, isbns_accepted: 1 }));
  });
});
