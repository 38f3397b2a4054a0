import { describe, expect, it } from 'vitest';
import { allDoneText, shareText } from './job-results';

describe('shareText', () => {
  it('rounds a share to a whole percent', () => {
    expect(shareText(1, 3)).toBe('33%');
    expect(shareText(2, 3)).toBe('67%');
    expect(shareText(0, 300)).toBe('0%');
    expect(shareText(300, 300)).toBe('100%');
  });

  it('never rounds some books to none, or not all to all', () => {
    expect(shareText(1, 300)).toBe('<1%');
    expect(shareText(299, 300)).toBe('>99%');
  });

  it('has no share of a job without books', () => {
    expect(shareText(0, 0)).toBe('—');
  });
});

describe('allDoneText', () => {
  it('names one marketplace, counts several', () => {
    expect(allDoneText(['Abe Books'])).toBe('Abe Books done');
    expect(allDoneText(['Abe Books', 'Alibris'])).toBe('Both marketplaces done');
    expect(allDoneText(['Abe Books', 'Biblio', 'Alibris', 'Amazon'])).toBe('All 4 marketplaces done');
  });
});
