import { describe, expect, it } from 'vitest';
import { parseCsv, sniffDelimiter } from './csv.ts';
import { decodeText } from './text-decode.ts';
import { UploadError } from './upload-error.ts';

describe('parseCsv', () => {
  it('splits records and fields', () => {
    expect(parseCsv('a,b\nc,d\n', ',')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('accepts CRLF, LF and CR line ends and keeps blank lines as blank rows', () => {
    expect(parseCsv('a\r\n\r\nb\rc\n', ',')).toEqual([['a'], [''], ['b'], ['c']]);
  });

  it('reads quoted fields with delimiters, newlines and doubled quotes', () => {
    expect(parseCsv('"x, y","line1\nline2","say ""hi"""\n', ',')).toEqual([['x, y', 'line1\nline2', 'say "hi"']]);
  });

  it('keeps text after a closing quote, as Excel does', () => {
    expect(parseCsv('"978"0131457577,b', ',')).toEqual([['9780131457577', 'b']]);
  });

  it('keeps empty trailing fields and a last line without newline', () => {
    expect(parseCsv('a,\n,b', ',')).toEqual([
      ['a', ''],
      ['', 'b'],
    ]);
  });

  it('survives an unterminated quote', () => {
    expect(parseCsv('"abc\n', ',')).toEqual([['abc\n']]);
  });

  it('never turns digits into numbers', () => {
    expect(parseCsv('0451161351;9780131457577;9780131457577.0', ';')).toEqual([['0451161351', '9780131457577', '9780131457577.0']]);
  });

  it('stops after maxRecords', () => {
    expect(parseCsv('1\n2\n3\n', ',', 2)).toEqual([['1'], ['2']]);
  });
});

describe('sniffDelimiter', () => {
  it.each([
    ['comma', 'ISBN,Title\n9780131457577,Foo\n9780306406157,Bar\n', ','],
    ['semicolon', 'ISBN;Title\n9780131457577;Foo\n9780306406157;Bar\n', ';'],
    ['tab', 'ISBN\tTitle\n9780131457577\tFoo\n9780306406157\tBar\n', '\t'],
    ['semicolon with decimal commas', 'ISBN;Price\n9780131457577;12,50\n9780306406157;7,00\n', ';'],
    ['semicolon with decimal commas, no header (a tie)', '9780131457577;12,50\n9780306406157;7,00\n', ';'],
    ['tab with decimal commas (a tie)', '9780131457577\t12,50\n9780306406157\t7,00\n', '\t'],
    ['comma with semicolons in some titles', 'ISBN,Title\n9780131457577,"A; B"\n9780306406157,C\n', ','],
    ['tab with commas in titles', 'ISBN\tTitle\n9780131457577\tDune, Messiah\n9780306406157\tKim\n', '\t'],
    ['single column', 'ISBN\n9780131457577\n9780306406157\n', ','],
  ] as const)('%s', (_label, text, expected) => {
    expect(sniffDelimiter(text)).toBe(expected);
  });
});

describe('decodeText', () => {
  const text = 'ISBN;Titel\n9783446429055;Café\n';

  it('reads UTF-8 with and without BOM', () => {
    expect(decodeText(Buffer.from(text, 'utf8'))).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]))).toBe(text);
  });

  it('reads UTF-16 LE and BE with BOM', () => {
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe(text);
    const be = Buffer.from(text, 'utf16le').swap16();
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe(text);
    // A file cut mid-character loses the odd byte rather than ending in U+FFFD.
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be, Buffer.from([0x00])]))).toBe(text);
    expect(decodeText(Buffer.concat([be, Buffer.from([0x00])]))).toBe(text);
  });

  it('recognises UTF-16 without BOM', () => {
    expect(decodeText(Buffer.from(text, 'utf16le'))).toBe(text);
  });

  it('falls back to Windows-1252 for legacy CSV', () => {
    expect(decodeText(Buffer.from('Caf\xe9;9780486229874', 'latin1'))).toBe('Café;9780486229874');
  });

  it('refuses binary content', () => {
    const binary = Buffer.from(Array.from({ length: 400 }, (_, i) => (i * 7) % 32));
    expect(() => decodeText(binary)).toThrow(UploadError);
  });
});
