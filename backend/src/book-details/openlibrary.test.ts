import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFixture } from '../../test/helpers/http-contract.ts';
import { EMPTY_BATCH_ATTEMPTS, EmptyBatchError, OpenLibraryError, fetchBookDetails, parseBooks, yearOf } from './openlibrary.ts';
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

describe('fetching from Open Library: its empty answers and its size', () => {
  /** Bodies answered in turn (the last one repeats), and the number of requests seen. */
  let bodies: string[] = [];
  let requests = 0;
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      const body = bodies[Math.min(requests, bodies.length - 1)] ?? '{}';
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    requests = 0;
  });
  const settings = () => ({ url, userAgent: 'test', timeoutMs: 5000 });
  const ISBNS = ['9780441172719', '0140449132', '9780000000002'];

  it('an empty answer ({} with HTTP 200: Open Library failing inside) is asked again, and the next answer counts', async () => {
    bodies = ['{}', fixture('books-data.json')];
    const books = await fetchBookDetails(ISBNS, settings(), 1);
    expect(requests).toBe(2);
    expect(books.get('9780441172719')?.title).toBe('Dune: Deluxe Edition');
    // Missing from an answer that holds others: not found.
    expect(books.get('9780000000002')).toBeNull();
  });

  it('still empty after the bounded attempts, the batch is a failure to retry later, not "not found"', async () => {
    bodies = ['{}'];
    await expect(fetchBookDetails(ISBNS, settings(), 1)).rejects.toThrow(EmptyBatchError);
    expect(requests).toBe(EMPTY_BATCH_ATTEMPTS);
  });

  it('an answer holding some of the ISBNs is taken at once', async () => {
    bodies = [fixture('books-data.json')];
    await fetchBookDetails(ISBNS, settings(), 1);
    expect(requests).toBe(1);
  });

  it('an answer larger than the cap is an error for the batch, not read whole', async () => {
    bodies = [JSON.stringify({ 'ISBN:9780441172719': { title: 'x'.repeat(64 * 1024) } })];
    await expect(fetchBookDetails(ISBNS, { ...settings(), maxResponseBytes: 16 * 1024 }, 1)).rejects.toThrow(
      new OpenLibraryError('Open Library: answer larger than 0.02 MB (MARKETPLACE_MAX_RESPONSE_BYTES): not read'),
    );
  });
});
