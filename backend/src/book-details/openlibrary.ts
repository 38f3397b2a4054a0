// Open Library's Books API, many ISBNs per request: GET {base}/api/books?bibkeys=ISBN:a,ISBN:b
// &jscmd=data&format=json with an identifying User-Agent (Open Library asks for one; no key).
// The answer is one object keyed by the bibkeys asked ("ISBN:<isbn>"), each built by Open Library's
// DataProcessor.process_doc (openlibrary/plugins/books/dynlinks.py): empty values are left out, and
// an ISBN it does not know is simply absent. Without format=json the body is JavaScript, so we ask for JSON.
// Open Library also answers `{}` with HTTP 200 when it fails inside (its handler catches the error and
// returns an empty object), so an answer naming none of the ISBNs asked is asked again after a pause;
// still empty, it is a failure to retry later, never "not found" (fetchBookDetails).
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_MAX_RESPONSE_BYTES, readBodyCapped, ResponseTooLargeError } from '../lib/capped-body.ts';

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
  /** The largest answer read (MARKETPLACE_MAX_RESPONSE_BYTES); default http.ts's. */
  maxResponseBytes?: number;
}

/** Thrown for an answer that is not the Books API's object: the batch is tried again later. */
export class OpenLibraryError extends Error {}

/** Every answer to a batch was `{}`: Open Library failing inside, or none of its ISBNs known (indistinguishable). */
export class EmptyBatchError extends OpenLibraryError {}

/** Attempts at a batch answered `{}`, and the pause before each new one (Open Library's hiccups pass in seconds). */
export const EMPTY_BATCH_ATTEMPTS = 3;
export const EMPTY_BATCH_PAUSE_MS = 2000;

/**
 * Details of each ISBN asked: null when Open Library does not know it (absent from an answer that
 * holds others). An answer holding none is asked again up to EMPTY_BATCH_ATTEMPTS times, `pauseMs`
 * apart; then EmptyBatchError, so nothing is stored as "not found" on the word of a failing server.
 */
export async function fetchBookDetails(
  isbns: readonly string[],
  s: OpenLibrarySettings,
  pauseMs = EMPTY_BATCH_PAUSE_MS,
): Promise<Map<string, BookDetails | null>> {
  for (let attempt = 1; ; attempt++) {
    const books = await fetchOnce(isbns, s);
    if ([...books.values()].some((b) => b !== null)) return books;
    if (attempt >= EMPTY_BATCH_ATTEMPTS)
      throw new EmptyBatchError(`Open Library answered {} to ${isbns.length} ISBN(s) ${attempt} times: tried again later`);
    await sleep(pauseMs);
  }
}

async function fetchOnce(isbns: readonly string[], s: OpenLibrarySettings): Promise<Map<string, BookDetails | null>> {
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
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new OpenLibraryError(`Open Library answered HTTP ${res.status}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBodyCapped(res, s.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
  } catch (err) {
    if (err instanceof ResponseTooLargeError) throw new OpenLibraryError(`Open Library: ${err.message}`);
    throw new OpenLibraryError(`Open Library unreachable: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseBooks(new TextDecoder().decode(bytes), isbns);
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
