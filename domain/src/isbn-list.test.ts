import { describe, expect, it } from 'vitest';
import { ISBN_REJECTION as R } from './isbn.ts';
import { PASTE_MESSAGES, pastedListProblem, readPastedList, splitPastedText } from './isbn-list.ts';

describe('splitPastedText', () => {
  it('gives one code per line, as a scanner types them, with its line number', () => {
    expect(splitPastedText('9780306406157\n0131457578\r\n\n  \r9781861972712\n')).toEqual([
      { line: 1, text: '9780306406157' },
      { line: 2, text: '0131457578' },
      { line: 5, text: '9781861972712' },
    ]);
  });

  it('splits at tabs (spreadsheet cells) and leaves commas and semicolons to the normaliser', () => {
    expect(splitPastedText('9780306406157\tThe title\t12.99\n0131457578,9781861972712; 9780486229874')).toEqual([
      { line: 1, text: '9780306406157' },
      { line: 1, text: 'The title' },
      { line: 1, text: '12.99' },
      { line: 2, text: '0131457578,9781861972712;' },
      { line: 2, text: '9780486229874' },
    ]);
    expect(readPastedList('0131457578,9781861972712;9780486229874|9780306406157').isbns).toEqual([
      '9780131457577',
      '9781861972712',
      '9780486229874',
      '9780306406157',
    ]);
  });

  it('splits at spaces only between two whole codes', () => {
    expect(splitPastedText('9780306406157 0131457578  978-1-86197-271-2').map((c) => c.text)).toEqual([
      '9780306406157',
      '0131457578',
      '978-1-86197-271-2',
    ]);
    // Group spaces, an add-on after its EAN and a spaced ISBN-10 with its lone X stay one code.
    for (const text of ['978 0 306 40615 7', '9780306406157 51299', '0 8044 2957 X', 'ISBN 9780306406157'])
      expect(splitPastedText(text).map((c) => c.text)).toEqual([text]);
    // A short word between two codes keeps them in one piece; the normaliser's split of it is
    // accepted only when every part is a valid code.
    expect(splitPastedText('9780306406157 51299 080442957X 9781861972712 05').map((c) => c.text)).toEqual([
      '9780306406157 51299 080442957X',
      '9781861972712 05',
    ]);
    expect(readPastedList('9780306406157 51299 080442957X 9781861972712 05').isbns).toEqual([
      '9780306406157',
      '9780804429573',
      '9781861972712',
    ]);
  });

  it('keeps a long line of codes apart however many there are', () => {
    const line = Array.from({ length: 100 }, () => '9780306406157').join(' ');
    expect(splitPastedText(line)).toHaveLength(100);
  });
});

describe('readPastedList', () => {
  it('cleans a mixed scan like an upload: forms of one book are one ISBN, the rest has its reason', () => {
    const pasted = [
      '978-0-306-40615-7', // 1 hyphenated ISBN-13
      '0306406152', // 2 the same book as ISBN-10: a duplicate
      '9780131457577 51299', // 3 EAN with its price add-on after a space
      '978048622987451299', // 4 18 digits run together
      '036000291452', // 5 UPC
      'hello', // 6 junk
      '', // 7
      '9781861972712\t9780131457577', // 8 a new one and a duplicate
      '978030640615', // 9 check digit missing
    ].join('\n');
    expect(readPastedList(pasted)).toEqual({
      isbns: ['9780306406157', '9780131457577', '9780486229874', '9781861972712'],
      linesRead: 8,
      duplicates: 2,
      rejections: [
        { line: 5, raw: '036000291452', reason: R.upc },
        { line: 6, raw: 'hello', reason: R.notAnIsbn },
        { line: 9, raw: '978030640615', reason: R.truncated },
      ],
      rejectionsNotKept: 0,
    });
  });

  it('finds nothing in blank text or bare separators, and says what is wrong with a list', () => {
    expect(readPastedList(' \n\t\n')).toEqual({ isbns: [], linesRead: 0, duplicates: 0, rejections: [], rejectionsNotKept: 0 });
    expect(pastedListProblem(readPastedList(' \n\t\n , ;\n'))).toBe(PASTE_MESSAGES.empty);
    expect(pastedListProblem(readPastedList('hello\n036000291452'))).toBe(PASTE_MESSAGES.noneRecognised);
    expect(pastedListProblem(readPastedList('hello\n9780306406157'))).toBeNull();
  });
});
