// A book's page: what the marketplaces said about one ISBN (shared market data), its price history,
// the caller's jobs that included it, and "Price it now" (a one-book job through the paste's path).
import { BOOK_PAGE_FILENAME, bookJobName } from '@app/domain/book';
import type { App, AppContext } from '../core/context.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { announceInteractiveWork } from '../worker/interactive-jobs.ts';
import { eq, sql } from 'drizzle-orm';
import type { TxStep } from '../db/tx-step.ts';
import { jobs } from '../db/schema.ts';
import { createJobFor } from '../jobs/create.ts';
import type { StoredJob } from '../jobs/ingest.ts';
import { JobCreated } from '../jobs/schemas.ts';
import type { ParsedUpload } from '../uploads/index.ts';
import { currentUser } from '../users/current-user.ts';
import { readBook, readHistory } from './repository.ts';
import { BookHistory, BookPriceBody, BookPublic, IsbnParam, chosenMarketplaces } from './schemas.ts';

const tags = ['books'];

/**
 * "Ask the marketplaces now": the job counts as re-priced from its creation, so the worker reuses no
 * answer older than it (worker/reuse.ts) and every marketplace is asked again. Written in the job's
 * own transaction, before the worker can claim its rows.
 */
const askAgain: TxStep<StoredJob> = async (tx, { job }) => {
  await tx.update(jobs).set({ repriced_at: sql`now()` }).where(eq(jobs.id, job.id));
};

/** One book as a cleaned list: what the job's Upload section reports. */
function oneBook(isbn: string): ParsedUpload {
  return {
    isbns: [isbn],
    report: { sheet: '', column: '', header_row: false, rows_read: 1, isbns_accepted: 1, duplicates_merged: 0, cells_rejected: 0 },
    rejections: [],
  };
}

export function bookRoutes(app: App, ctx: AppContext): void {
  app.get('/books/:isbn', {
    schema: {
      operationId: 'readBook',
      tags,
      summary: "One book: title and author, each marketplace's latest answer with its offers, and the jobs that included it",
      params: IsbnParam,
      response: { 200: BookPublic, 422: HttpErrorBody },
    },
    handler: async (req) => readBook(ctx.db, currentUser(req), req.params.isbn),
  });

  app.get('/books/:isbn/history', {
    schema: {
      operationId: 'readBookHistory',
      tags,
      summary: "One book's price and sales rank over time, per marketplace and Keepa's, with how fast it sells (velocity)",
      params: IsbnParam,
      response: { 200: BookHistory, 422: HttpErrorBody },
    },
    handler: async (req) => {
      currentUser(req);
      return readHistory(ctx.db, req.params.isbn);
    },
  });

  app.post('/books/:isbn/price', {
    schema: {
      operationId: 'priceBook',
      tags,
      summary:
        'Price one book now: a job of this ISBN for the marketplaces chosen (all when none is named); with fresh, no recent answer is reused',
      params: IsbnParam,
      body: BookPriceBody.nullish(),
      response: { 200: JobCreated, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const { isbn } = req.params;
      const parsed = oneBook(isbn);
      const config = { name: bookJobName(isbn), ...chosenMarketplaces(req.body) };
      const created = await createJobFor(
        ctx,
        req,
        config,
        { filename: BOOK_PAGE_FILENAME, parsed },
        req.body?.fresh ? askAgain : undefined,
      );
      await announceInteractiveWork(ctx.db);
      return created;
    },
  });
}
