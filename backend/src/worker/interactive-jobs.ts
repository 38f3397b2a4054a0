// Interactive jobs: a person waits on the page for their answer ("Price it now" on a book's page, a
// scan session). The queue deals their rows first (worker/queue.ts), a marketplace's daily reserve is
// kept for them (worker/daily-budget.ts), and they are not held to a user's share of the day. A run
// their schedule queued is no longer interactive: nobody waits for it (jobs/schedule.ts).
import { BOOK_PAGE_FILENAME } from '@app/domain/book';
import { SCAN_SESSION_FILENAME } from '@app/domain/scan';
import { type SQL, param, sql } from 'drizzle-orm';

/** The Input Filenames of the jobs interactive sources create. */
export const INTERACTIVE_INPUT_FILENAMES: readonly string[] = [BOOK_PAGE_FILENAME, SCAN_SESSION_FILENAME];

/** Whether a job (`job`: its row's alias in the query, e.g. sql`j`) is interactive. */
export const isInteractiveJob = (job: SQL) =>
  sql`(${job}.input_filename = ANY(${param([...INTERACTIVE_INPUT_FILENAMES])}::text[]) AND NOT ${job}.queued_by_schedule)`;

/** The channel an API process announces new interactive lookups on, so workers claim them at once. */
export const INTERACTIVE_WORK_CHANNEL = 'interactive_work';

/** Says (after the commit that queued them) that interactive lookups wait: each worker claims them now, not at its next claim. */
export const announceInteractiveWork = (db: { execute: (q: SQL) => Promise<unknown> }) =>
  db.execute(sql`SELECT pg_notify(${INTERACTIVE_WORK_CHANNEL}, '')`);
