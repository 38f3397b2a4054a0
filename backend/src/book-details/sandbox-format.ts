// Open Library's Books API as the sandbox speaks it (jscmd=data), so nothing needs the internet: the
// shape DataProcessor.process_doc builds, empty values left out, unknown ISBNs absent, JavaScript
// unless format=json. Covers are drawn SVGs as data: URLs, so the browser fetches nothing either.
import { hash32 } from '../sandbox/random.ts';
import { bookFor } from '../sandbox/catalog.ts';
import type { SandboxService } from '../sandbox/formats/types.ts';

const VALID_ISBN = /^(\d{9}[\dX]|\d{13})$/i;
const MONTHS = ['Jan', 'March', 'June', 'Oct'];

/** Roughly one ISBN in eight is unknown to Open Library. */
export const knownToOpenLibrary = (isbn: string) => VALID_ISBN.test(isbn) && hash32('openlibrary', isbn) % 8 !== 0;

function entry(isbn: string) {
  const book = bookFor(isbn.toUpperCase(), 1);
  const olid = `OL${1_000_000 + (hash32('olid', isbn) % 9_000_000)}M`;
  const [last = '', first = ''] = book.author.split(', ');
  const variant = hash32('ol-date', isbn) % 3;
  const publishDate = variant === 0 ? String(book.year) : variant === 1 ? `${MONTHS[book.year % 4]} ${book.year}` : `Oct 15, ${book.year}`;
  const withCover = hash32('ol-cover', isbn) % 4 !== 0;
  const slug = book.title.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  return {
    url: `https://openlibrary.org/books/${olid}/${slug}`,
    key: `/books/${olid}`,
    title: book.title,
    authors: [{ url: `https://openlibrary.org/authors/OL${hash32('ola', book.author) % 900_000}A`, name: `${first} ${last}`.trim() }],
    number_of_pages: 120 + (hash32('pages', isbn) % 600),
    identifiers: { isbn_13: [isbn], openlibrary: [olid] },
    publishers: [{ name: book.publisher }],
    publish_date: publishDate,
    ...(withCover ? { cover: { small: cover(isbn), medium: cover(isbn), large: cover(isbn) } } : {}),
  };
}

/** A cover drawn for the book, as a data: URL (the page's CSP allows those; nothing to fetch). */
function cover(isbn: string): string {
  const book = bookFor(isbn.toUpperCase(), 1);
  const hue = hash32('hue', isbn) % 360;
  const xml = (t: string) => t.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="270" viewBox="0 0 180 270"><rect width="180" height="270" fill="hsl(${hue},45%,35%)"/><text x="90" y="120" fill="#fff" font-family="serif" font-size="16" text-anchor="middle">${xml(book.title)}</text><text x="90" y="160" fill="#fff" font-family="serif" font-size="12" text-anchor="middle">${xml(book.author)}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export const openLibrarySim: SandboxService = (call) => {
  if (call.path !== '/api/books') return null;
  const keys = (call.query.get('bibkeys') ?? '').split(',').filter(Boolean);
  const books = Object.fromEntries(
    keys.flatMap((key) => {
      const isbn = key.replace(/^ISBN:/i, '');
      return key.toUpperCase().startsWith('ISBN:') && knownToOpenLibrary(isbn) ? [[key, entry(isbn)]] : [];
    }),
  );
  if (call.query.get('format') === 'json') return { status: 200, contentType: 'application/json', body: JSON.stringify(books) };
  return { status: 200, contentType: 'application/javascript', body: `var _OLBookInfo = ${JSON.stringify(books)};` };
};
