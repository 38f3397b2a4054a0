// book_details: what Open Library says about each ISBN, kept and refreshed rarely.
import { eq, inArray, sql } from 'drizzle-orm';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { Db } from '../db/client.ts';
import { bookDetails, jobs, LOOKUP_TABLES } from '../db/schema.ts';
import type { BookDetails } from './openlibrary.ts';

export type StoredBookDetails = typeof bookDetails.$inferSelect;

/** Stores what one request said: found books with their details, unknown ISBNs as not found. */
export async function storeBookDetails(db: Db, answers: Map<string, BookDetails | null>): Promise<void> {
  if (answers.size === 0) return;
  const rows = [...answers].map(([isbn, d]) => ({
    isbn,
    found: d !== null,
    title: d?.title ?? null,
    authors: d?.authors ?? null,
    publisher: d?.publisher ?? null,
    publish_year: d?.publish_year ?? null,
    cover_url: d?.cover_url ?? null,
    fetched_at: sql`now()`,
  }));
  const t = bookDetails;
  await db
    .insert(t)
    .values(rows)
    .onConflictDoUpdate({
      target: t.isbn,
      set: {
        found: sql`excluded.found`,
        title: sql`excluded.title`,
        authors: sql`excluded.authors`,
        publisher: sql`excluded.publisher`,
        publish_year: sql`excluded.publish_year`,
        cover_url: sql`excluded.cover_url`,
        fetched_at: sql`excluded.fetched_at`,
      },
    });
}

/**
 * ISBNs whose batch Open Library kept answering `{}` (openlibrary.ts EmptyBatchError): asked again in
 * `retryInMs`, not after the whole refresh period. Their row is dated so that it falls due then
 * (fetched_at is "when it counts as asked"); a new ISBN gets a not-found row, a known one keeps its
 * details (a failing answer must not wipe them).
 */
export async function postponeBookDetails(db: Db, isbns: readonly string[], retryInMs: number, refreshMs: number): Promise<void> {
  if (isbns.length === 0) return;
  const due = sql`now() - ${Math.max(0, refreshMs - retryInMs)} * interval '1 millisecond'`;
  await db
    .insert(bookDetails)
    .values(isbns.map((isbn) => ({ isbn, found: false, fetched_at: due })))
    .onConflictDoUpdate({ target: bookDetails.isbn, set: { fetched_at: sql`excluded.fetched_at` } });
}

export async function readBookDetails(db: Db, isbn: string): Promise<StoredBookDetails | undefined> {
  const [row] = await db.select().from(bookDetails).where(eq(bookDetails.isbn, isbn));
  return row;
}

/** Jobs, newest first, with the flags that say which lookup table holds their ISBNs. */
export async function jobsNewestFirst(db: Db, skip: ReadonlySet<number>, limit: number) {
  const rows = await db
    .select({ id: jobs.id, ...Object.fromEntries(MARKETPLACE_LIST.map((m) => [m.id, jobs[m.id]])) })
    .from(jobs)
    .orderBy(sql`${jobs.id} DESC`);
  return rows.filter((r) => !skip.has(r.id)).slice(0, limit) as { id: number; [flag: string]: unknown }[];
}

/**
 * Up to `limit` ISBNs of a job with no details fetched within `refreshMs` (one index range of the
 * job's first marketplace table: every marketplace of a job has the same ISBNs).
 */
export async function isbnsNeedingDetails(db: Db, job: { id: number; [flag: string]: unknown }, refreshMs: number, limit: number) {
  const base = MARKETPLACE_LIST.find((m) => job[m.id] === true);
  if (!base) return [];
  const t = LOOKUP_TABLES[base.id];
  // No DISTINCT: the base marketplace holds each ISBN of a job once (comparison_rows' unique (job,
  // ISBN) is written from it), and DISTINCT made every pass read all the job's rows, 150k for a big
  // paste, about once a second while the job was still being written (issue 29).
  const rows = await db
    .select({ isbn: t.isbn })
    .from(t)
    .where(
      sql`${t.isbn_lookup_job_id} = ${job.id} AND NOT EXISTS (
        SELECT 1 FROM ${bookDetails} d WHERE d.isbn = ${t.isbn} AND d.fetched_at > now() - ${refreshMs} * interval '1 millisecond')`,
    )
    .limit(limit);
  return rows.map((r) => r.isbn);
}

/** The stored details of some ISBNs (for tests and the book page). */
export async function detailsOf(db: Db, isbns: string[]): Promise<StoredBookDetails[]> {
  if (isbns.length === 0) return [];
  return db.select().from(bookDetails).where(inArray(bookDetails.isbn, isbns));
}
