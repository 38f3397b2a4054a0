// The worker's background fetch of Keepa's history: for the newest jobs that ask Amazon first, the
// ISBNs Keepa was not asked about within KEEPA_REFRESH, in batches of KEEPA_BATCH_SIZE codes per
// request, paced on Keepa's token bucket shared by every worker (tokens.ts). A job whose ISBNs all
// have a fresh answer is left alone for a minute: a job gains ISBNs after it is created (a big list's
// steps still being written, a scan session's next book), so it is never done for good.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../core/logging.ts';
import type { Db } from '../db/client.ts';
import { fetchKeepaHistory } from './client.ts';
import type { KeepaSettings } from './options.ts';
import { type AfterKeepaBook, amazonJobsNewestFirst, isbnsNeedingKeepa, storeKeepaHistory } from './repository.ts';
import { KeepaTokens } from './tokens.ts';

/** Jobs looked at per pass. */
const JOBS_PER_PASS = 20;
/** How long a job with nothing to ask is left alone before it is looked at again. */
export const KEEPA_REVISIT_MS = 60_000;

export interface KeepaFetcherOptions {
  /** The pause after a pass that sent nothing (ms). */
  idleMs?: number;
  /** How long a job with nothing to ask is left alone (ms). */
  revisitMs?: number;
  /** Told of each book whose history was stored; passed in by the worker (watches/evaluate.ts), so keepa/ stays below the features that read it. */
  afterBook?: AfterKeepaBook;
}

export class KeepaFetcher {
  /** Jobs found with nothing to ask, and when. */
  private readonly done = new Map<number, number>();
  private readonly stopping = new AbortController();
  private readonly tokens: KeepaTokens;
  private loop: Promise<void> | undefined;
  /** Requests sent and ISBNs Keepa knew, since start. */
  requests = 0;
  found = 0;

  private readonly idleMs: number;
  private readonly revisitMs: number;
  private readonly afterBook: AfterKeepaBook | undefined;

  constructor(
    private readonly db: Db,
    private readonly settings: KeepaSettings,
    private readonly log: Pick<Logger, 'info' | 'warn' | 'error'>,
    opts: KeepaFetcherOptions = {},
  ) {
    this.tokens = new KeepaTokens(db);
    this.idleMs = opts.idleMs ?? 2000;
    this.revisitMs = opts.revisitMs ?? KEEPA_REVISIT_MS;
    this.afterBook = opts.afterBook;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop?.catch(() => {});
  }

  /** One pass: asks Keepa about one batch when some job needs one. Returns whether it sent a request. */
  async pass(): Promise<boolean> {
    const now = Date.now();
    for (const [jobId, at] of this.done) if (now - at >= this.revisitMs) this.done.delete(jobId);
    for (const jobId of await amazonJobsNewestFirst(this.db, new Set(this.done.keys()), JOBS_PER_PASS)) {
      const isbns = await isbnsNeedingKeepa(this.db, jobId, this.settings.refreshMs, this.settings.batchSize);
      if (isbns.length === 0) {
        this.done.set(jobId, now);
        continue;
      }
      this.requests++;
      const answers = await fetchKeepaHistory(isbns, this.settings, this.tokens, this.stopping.signal);
      await storeKeepaHistory(this.db, answers, this.afterBook);
      this.found += [...answers.values()].filter((p) => p !== null).length;
      return true;
    }
    return false;
  }

  private async run(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      let sent = false;
      try {
        sent = await this.pass();
      } catch (err) {
        if (this.stopping.signal.aborted) return;
        // Keepa down, refused or a database hiccup: the same ISBNs are asked again after a pause.
        this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'fetching Keepa history failed; trying again later');
      }
      // Tokens pace the requests (tokens.ts); an idle pass waits before looking again.
      if (!sent) await sleep(this.idleMs, undefined, { signal: this.stopping.signal }).catch(() => {});
    }
  }
}
