import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test/helpers/http-contract.ts';
import { OpenLibraryError, parseBooks, yearOf } from './openlibrary.ts';
import { knownToOpenLibrary, openLibrarySim } from './sandbox-format.ts';

const fixture = readFixture(import.meta.url);

describe("Open Library's Books API (jscmd=data)", () => {
  it('reads title (with subtitle), authors, publishers, year and the medium cover; an ISBN it does not know is absent', () => {
    const books = parseBooks(fixture('books-data.json'), ['9780441172719', '0140449132', '9780000000002']);
    expect(books.get('9780441172719')).toEqual({
      title: 'Dune: Deluxe Edition',
      authors: 'Frank Herbert',
      publisher: 'Ace; Penguin Random House',
      publish_year: 2019,
      cover_url: 'https://covers.openlibrary.org/b/id/8231856-M.jpg',
    });
    // Empty values are left out by Open Library: no publishers, no cover.
    expect(books.get('0140449132')).toEqual({
      title: 'Crime and Punishment',
      authors: 'Fyodor Dostoyevsky; David McDuff',
      publisher: null,
      publish_year: 2003,
      cover_url: null,
    });
    expect(books.get('9780000000002')).toBeNull();
  });

  it('an empty object is a batch nobody knows; anything else is an error for the whole batch', () => {
    expect(parseBooks('{}', ['9780441172719']).get('9780441172719')).toBeNull();
    expect(() => parseBooks('var _OLBookInfo = {};', ['9780441172719'])).toThrow(OpenLibraryError);
    expect(() => parseBooks('[]', ['9780441172719'])).toThrow(OpenLibraryError);
  });

  it.each([
    ['1987', 1987],
    ['March 1987', 1987],
    ['Oct 15, 1987', 1987],
    ['c1987', 1987],
    ['1987-05-01', 1987],
    ['n.d.', null],
    [null, null],
  ])('the year of publish_date %s is %s', (date, year) => {
    expect(yearOf(date)).toBe(year);
  });

  it('the sandbox answers in the same shape, keyed by the bibkeys asked, JavaScript unless format=json', () => {
    const isbns = ['9780131457577', '9780131457584', '9780131457591', '9780131457607'];
    const query = new URLSearchParams({ bibkeys: isbns.map((i) => `ISBN:${i}`).join(','), jscmd: 'data', format: 'json' });
    const reply = openLibrarySim({ path: '/api/books', query, host: '127.0.0.1:9' });
    expect(reply?.contentType).toBe('application/json');
    const books = parseBooks(reply?.body ?? '', isbns);
    for (const isbn of isbns) {
      const book = books.get(isbn);
      if (!knownToOpenLibrary(isbn)) expect(book).toBeNull();
      else expect(book).toMatchObject({ title: expect.any(String), authors: expect.any(String), publish_year: expect.any(Number) });
    }
    query.delete('format');
    expect(openLibrarySim({ path: '/api/books', query, host: '127.0.0.1:9' })?.body).toMatch(/^var _OLBookInfo = \{/);
  });
});
