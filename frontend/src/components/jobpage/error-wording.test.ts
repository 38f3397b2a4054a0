import { describe, expect, it } from 'vitest';
import { booksText, errorInBooks } from './error-wording';

describe('errorInBooks', () => {
  it('says what a known error means for the books', () => {
    expect(errorInBooks('Amazon: NoBuyableOffers', 2, 'Amazon')).toBe('2 books with no used offers on Amazon');
    expect(errorInBooks("Amazon's catalog has no item with this ISBN", 1, 'Amazon')).toBe("1 book not in Amazon's catalog");
    expect(errorInBooks('Amazon has no offers for ASIN B000123 (NotFound)', 3, 'Amazon')).toBe('3 books with no offers on Amazon');
    expect(errorInBooks('Rate limited (429)', 4, 'Alibris')).toBe('4 books held back: Alibris asked us to slow down');
    expect(errorInBooks('eBay daily call limit reached (429)', 5, 'eBay')).toBe("5 books waiting for eBay's daily quota to reset");
    expect(errorInBooks('Timed out after 10000 ms', 1, 'Biblio')).toBe('1 book whose lookup on Biblio timed out');
    expect(errorInBooks('Marketplace unavailable (503)', 2, 'Abe Books')).toBe('2 books not answered: Abe Books was unavailable');
    expect(errorInBooks('Malformed response: no offers', 2, 'Biblio')).toBe('2 books whose answer from Biblio could not be read');
    expect(errorInBooks('Marketplace rejected the credentials (401)', 6, 'eBay')).toBe(
      '6 books not looked up: eBay refused our credentials',
    );
  });

  it('adds that the worker gave up, after how many tries', () => {
    expect(errorInBooks('Marketplace unavailable (500) (gave up after 3 attempts)', 2, 'Biblio')).toBe(
      '2 books not answered: Biblio was unavailable (given up after 3 tries)',
    );
  });

  it('quotes an unknown message in a sentence that still counts books', () => {
    expect(errorInBooks('HTTP 500 (gave up after 3 attempts)', 1, 'Abe Books')).toBe(
      '1 book with this answer from Abe Books: “HTTP 500” (given up after 3 tries)',
    );
    expect(errorInBooks('', 2, 'Alibris')).toBe('2 books with this answer from Alibris: “no message”');
  });

  it('writes large counts with separators', () => {
    expect(booksText(12345)).toBe('12,345 books');
  });
});
