// A book's own page (/books/<isbn>): the one ISBN typed in the header's search box or the page's
// address, read with the upload's normaliser, and the one-book job "Price it now" creates.
import { normalizeIsbnCell } from './isbn.ts';

export const BOOK_MESSAGES = {
  empty: 'Enter an ISBN.',
  several: 'More than one ISBN: enter one.',
} as const;

/** The Input Filename of a job created from a book's page (no upload can be named so: it has no extension). */
export const BOOK_PAGE_FILENAME = 'book page';

export const bookJobName = (isbn13: string) => `Book ${isbn13}`;

/** Any form the upload accepts (ISBN-10, hyphens, an EAN with add-on…) → its ISBN-13, or the normaliser's reason. */
export function readOneIsbn(text: string): { isbn: string } | { reason: string } {
  const cell = normalizeIsbnCell(text);
  const rejected = cell.rejections[0];
  if (rejected) return { reason: rejected.reason };
  const [isbn, ...more] = cell.isbns;
  if (isbn === undefined) return { reason: BOOK_MESSAGES.empty };
  // "ISBN-10: 0131457578, ISBN-13: 9780131457577" is one book; two books are not.
  return more.length ? { reason: BOOK_MESSAGES.several } : { isbn };
}
