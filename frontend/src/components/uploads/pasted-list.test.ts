import { describe, expect, it } from 'vitest';
import { pastedListSummary, readPastedListOnce } from './pasted-list';

describe('pasted list in the Create Job dialog', () => {
  it.each([
    ['', '0 ISBNs ready'],
    ['9780306406157', '1 ISBN ready'],
    ['9780306406157\n0306406152\n9780131457577', '2 ISBNs ready · 1 duplicate merged'],
    ['9780306406157\n0306406152\n0306406152\nhello\n036000291452', '1 ISBN ready · 2 duplicates merged · 2 not recognised'],
  ])('%j → %s', (text, summary) => expect(pastedListSummary(readPastedListOnce(text))).toBe(summary));

  it('reads the same text once', () => {
    const text = '9780306406157\nhello';
    expect(readPastedListOnce(text)).toBe(readPastedListOnce(text));
    expect(readPastedListOnce(`${text}\n`)).not.toBe(readPastedListOnce(text));
  });
});
