// Open Library's Books API, many ISBNs per request: GET {base}/api/books?bibkeys=ISBN:a,ISBN:b
// &jscmd=data&format=json with an identifying User-Agent (Open Library asks for one; no key).
// The answer is one object keyed by the bibkeys asked ("ISBN:<isbn>"), each built by Open Library's
// DataProcessor.process_doc (openlibrary/plugins/books/dynlinks.py): empty values are left out, and
// an ISBN it does not know is simply absent. Without format=json the body is JavaScript, so we ask for JSON.

/** What we keep of a book (book_details). */
export interface BookDetails {
  title: string | null;
  authors: string | null;
  publisher: string | null;
  publish_year: number | null;
  cover_url: string | null;
}

export interface OpenLibrarySettings {
  /** Open Library's root (or the sandbox's copy), without a trailing slash. */
  url: string;
  userAgent: string;
  timeoutMs: number;
}

/** Thrown for an answer that is not the Books API's object: the batch is tried again later. */
export class OpenLibraryError extends Error {}

/** Details of each ISBN asked: null when Open Library does not know it. */
export async function fetchBookDetails(isbns: readonly string[], s: OpenLibrarySettings): Promise<Map<string, BookDetails | null>> {
  const query = new URLSearchParams({ bibkeys: isbns.map((i) => `ISBN:${i}`).join(','), jscmd: 'data', format: 'json' });
  let res: Response;
  try {
    res = await fetch(`${s.url}/api/books?${query}`, {
      headers: { accept: 'application/json', 'user-agent': s.userAgent },
      signal: AbortSignal.timeout(s.timeoutMs),
    });
  } catch (err) {
    throw new OpenLibraryError(`Open Library unreachable: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!res.ok) throw new OpenLibraryError(`Open Library answered HTTP ${res.status}`);
  return parseBooks(await res.text(), isbns);
}

export function parseBooks(body: string, isbns: readonly string[]): Map<string, BookDetails | null> {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new OpenLibraryError('Open Library: not JSON');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new OpenLibraryError('Open Library: not an object');
  const byKey = doc as Record<string, unknown>;
  return new Map(isbns.map((isbn) => [isbn, readBook(byKey[`ISBN:${isbn}`])]));
}

type Obj = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const names = (v: unknown) =>
  Array.isArray(v)
    ? v
        .map((x) => text((x as Obj | null)?.name))
        .filter((n): n is string => n !== null)
        .join('; ') || null
    : null;

function readBook(entry: unknown): BookDetails | null {
  if (!entry || typeof entry !== 'object') return null;
  const b = entry as Obj;
  const title = text(b.title);
  const subtitle = text(b.subtitle);
  const cover = (b.cover ?? {}) as Obj;
  return {
    title: title && subtitle ? `${title}: ${subtitle}` : title,
    authors: names(b.authors),
    publisher: names(b.publishers),
    publish_year: yearOf(text(b.publish_date)),
    cover_url: text(cover.medium) ?? text(cover.large) ?? text(cover.small),
  };
}

/** publish_date is free text ("1987", "March 1987", "Oct 15, 1987", "c1987"): its four-digit year. */
export function yearOf(date: string | null): number | null {
  const match = /(?:^|\D)(1[5-9]\d\d|20\d\d)(?:\D|$)/.exec(date ?? '');
  return match ? Number(match[1]) : null;
}
