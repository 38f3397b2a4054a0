// The worker's background fetch of book details: for the newest jobs first, the ISBNs without fresh
// details, in batches of BOOK_DETAILS_BATCH_SIZE per Open Library request, at OPENLIBRARY_RATE_PER_SECOND
// per process. A job whose ISBNs all have details is remembered as done for the process's life (a new
// job is always looked at). Two workers may fetch the same batch at once; the upsert makes that harmless.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/client.ts';
import type { Logger } from '../core/logging.ts';
import { EmptyBatchError, fetchBookDetails } from './openlibrary.ts';
import type { BookDetailsSettings } from './options.ts';
import { isbnsNeedingDetails, jobsNewestFirst, postponeBookDetails, storeBookDetails } from './repository.ts';

/** Jobs looked at per pass. */
const JOBS_PER_PASS = 20;

/**
 * A batch Open Library kept answering `{}` is asked again this much later. Not at once: the same
 * newest job would pick the same batch every pass. Not after the refresh period (90 days): it was
 * most likely Open Library failing, not a batch of unknown books.
 */
export const EMPTY_BATCH_RETRY_MS = 3_600_000;

export class BookDetailsFetcher {
  private readonly done = new Set<number>();
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;
  /** Batches asked (each one request, up to EMPTY_BATCH_ATTEMPTS when answered `{}`) and ISBNs stored since start. */
  requests = 0;
  stored = 0;
  /** ISBNs of batches Open Library answered `{}`, put off until EMPTY_BATCH_RETRY_MS later. */
  postponed = 0;

  constructor(
    private readonly db: Db,
    private readonly settings: BookDetailsSettings,
    private readonly log: Pick<Logger, 'info' | 'warn' | 'error'>,
    private readonly idleMs = 2000,
    /** Pause between attempts at a batch answered `{}` (tests shorten it). */
    private readonly emptyBatchPauseMs?: number,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
  }

  /** One pass: fetches one batch when some job needs one. Returns whether it sent a request. */
  async pass(): Promise<boolean> {
    for (const job of await jobsNewestFirst(this.db, this.done, JOBS_PER_PASS)) {
      const isbns = await isbnsNeedingDetails(this.db, job, this.settings.refreshMs, this.settings.batchSize);
      if (isbns.length === 0) {
        this.done.add(job.id);
        continue;
      }
      this.requests++;
      const answers = await fetchBookDetails(isbns, this.settings, this.emptyBatchPauseMs).catch((err: unknown) => {
        if (err instanceof EmptyBatchError) return err;
        throw err;
      });
      if (answers instanceof EmptyBatchError) {
        this.log.warn({ err: answers.message, isbns: isbns.length }, 'Open Library answered an empty batch; asking again later');
        await postponeBookDetails(this.db, isbns, EMPTY_BATCH_RETRY_MS, this.settings.refreshMs);
        this.postponed += isbns.length;
        return true;
      }
      await storeBookDetails(this.db, answers);
      this.stored += answers.size;
      return true;
    }
    return false;
  }

  private async run(): Promise<void> {
    const spacingMs = 1000 / this.settings.ratePerSecond;
    while (!this.stopping.signal.aborted) {
      const started = performance.now();
      let sent = false;
      try {
        sent = await this.pass();
      } catch (err) {
        // Open Library down or a database hiccup: the same ISBNs are asked again after a pause.
        this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'fetching book details failed; trying again later');
      }
      const wait = sent ? Math.max(0, spacingMs - (performance.now() - started)) : Math.max(spacingMs, this.idleMs);
      await sleep(wait, undefined, { signal: this.stopping.signal }).catch(() => {});
    }
  }
}
