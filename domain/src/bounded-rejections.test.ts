import { describe, expect, it } from 'vitest';
import { BoundedRejections, clipRejectedValue, REJECTED_VALUE_MAX_CHARS } from './bounded-rejections.ts';
import { PastedListReader, pastedListProblem, PASTE_MESSAGES, splitPastedText } from './isbn-list.ts';

describe('bounded rejections', () => {
  it('keeps the first ones and counts the rest', () => {
    const b = new BoundedRejections<number>(2);
    for (let i = 0; i < 5; i++) b.add(i);
    expect(b.kept).toEqual([0, 1]);
    expect(b.notKept).toBe(3);
    expect(b.total).toBe(5);
  });

  it('cuts a long value to its start and says how long it was', () => {
    expect(clipRejectedValue('hello')).toBe('hello');
    const exact = 'x'.repeat(REJECTED_VALUE_MAX_CHARS);
    expect(clipRejectedValue(exact)).toBe(exact);
    expect(clipRejectedValue('9'.repeat(12_345))).toBe(`${'9'.repeat(REJECTED_VALUE_MAX_CHARS)}… (12,345 characters)`);
  });

  it('a pasted list reader keeps rejections up to its limit; a list of only junk is still "none recognised"', () => {
    const reader = new PastedListReader(1);
    for (const code of splitPastedText('junk\nmore\nstill more\n9780306406157')) reader.add(code);
    expect(reader.list.rejections.map((r) => r.raw)).toEqual(['junk']);
    expect(reader.list.rejectionsNotKept).toBe(2);
    const onlyJunk = new PastedListReader(0);
    for (const code of splitPastedText('junk')) onlyJunk.add(code);
    expect(pastedListProblem(onlyJunk.list)).toBe(PASTE_MESSAGES.noneRecognised);
  });
});
