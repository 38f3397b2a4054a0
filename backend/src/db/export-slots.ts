// CSV downloads share a few slots per process, and each user only some of them (never all): a
// user's slow or forgotten downloads cannot turn everyone else's away. A download holds its slot
// until its response ends; one whose client takes too little (stopped reading, or reads at a crawl)
// is ended, so its slot (and on PostgreSQL its export connection) comes back. On the embedded
// database this is the only limit: each page of an export runs on the one connection everything
// shares.
import { Transform, pipeline, type Readable } from 'node:stream';
import { Gate, GateFullError } from '../lib/gate.ts';
import { HttpError, tooManyRequests } from '../lib/http-errors.ts';
import { PerKeyLimit } from '../lib/per-key-limit.ts';

export interface ExportLimits {
  /** Downloads at once in this process (also the PostgreSQL export pool's size). */
  maxConcurrent: number;
  /** Downloads at once per user. */
  maxPerUser: number;
  /** The window a download is judged over: less than `minBytesPerSecond` × window in one ends it. */
  windowMs: number;
  minBytesPerSecond: number;
}

/** How long a download waits in line for a slot of the process before it is asked to come back. */
const SLOT_WAIT_MS = 2_000;

/** Every download slot is taken (this process's, or PostgreSQL's export pool). */
export const tooManyDownloads = () =>
  new HttpError(503, 'Too many CSV downloads are running. Please try again in a moment.', { 'retry-after': '10' });

/**
 * The connection a download is answered on, as far as the minimum speed needs it (a net.Socket).
 * `bytesWritten` counts what was written to it, its own buffer included; `writableLength` is that
 * buffer: their difference is what has left the process for the client.
 */
export interface DownloadConnection {
  readonly bytesWritten: number;
  readonly writableLength: number;
}

/**
 * The downloads one user may run at once: the setting, but always fewer than the process's slots
 * when there is more than one, so one user's downloads never take them all (a setting the
 * configuration allows, EXPORT_MAX_PER_USER ≥ EXPORT_MAX_CONCURRENT, would have let them).
 */
export const perUserShare = ({ maxConcurrent, maxPerUser }: Pick<ExportLimits, 'maxConcurrent' | 'maxPerUser'>) =>
  maxConcurrent > 1 ? Math.min(maxPerUser, maxConcurrent - 1) : 1;

/**
 * The most handed to the socket in one write. A write counts as taken by the client only once all
 * of it has left the process, and an export's chunks can be MBs (a page of rows on the embedded
 * database): a client reading a little over the minimum would have been seen taking nothing for
 * longer than a window.
 */
const PIECE_BYTES = 16 * 1024;

/** `source` cut into writes of at most PIECE_BYTES; ending it ends `source` too. */
function inPieces(source: Readable): Readable {
  const pieces = new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (let at = 0; at < chunk.length; at += PIECE_BYTES) this.push(chunk.subarray(at, at + PIECE_BYTES));
      done();
    },
  });
  pipeline(source, pieces, () => {});
  return pieces;
}

export class ExportSlots {
  private readonly slots: Gate;
  private readonly perUser: PerKeyLimit;
  private readonly maxPerUser: number;

  constructor(private readonly limits: ExportLimits) {
    this.slots = new Gate(limits.maxConcurrent, SLOT_WAIT_MS);
    this.maxPerUser = perUserShare(limits);
    this.perUser = new PerKeyLimit(this.maxPerUser);
  }

  /**
   * Runs `start` in a slot of `userId`'s and answers its stream, watched on `connection`; the slot
   * is given back when the stream ends, fails or is ended for moving too little. Answers 503 when
   * every slot of the process stays taken for a moment and 429 when the user's are.
   */
  async run(userId: string, connection: DownloadConnection, start: () => Promise<Readable>): Promise<Readable> {
    const { maxPerUser } = this;
    try {
      await this.slots.enter();
    } catch (err) {
      throw err instanceof GateFullError ? tooManyDownloads() : err;
    }
    if (!this.perUser.tryEnter(userId)) {
      this.slots.leave();
      throw tooManyRequests(
        `You already have ${maxPerUser === 1 ? 'a CSV download' : `${maxPerUser} CSV downloads`} running. Please try again when ${maxPerUser === 1 ? 'it has' : 'one has'} finished.`,
        10,
      );
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.slots.leave();
      this.perUser.leave(userId);
    };
    try {
      const stream = inPieces(await start());
      stream.once('close', release);
      this.watch(stream, connection);
      return stream;
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * Ends `stream` when its client takes too little of it: judged on what has left the process on
   * `connection`, not on what was handed to the socket's buffer (which takes a whole page of an
   * export at once, and did not say whether the client read any of it). The kernel's buffers still
   * take some before the client reads: at most the first window's worth, while they fill.
   */
  private watch(stream: Readable, connection: DownloadConnection): void {
    const { windowMs, minBytesPerSecond } = this.limits;
    const needed = (minBytesPerSecond * windowMs) / 1000;
    const taken = () => connection.bytesWritten - connection.writableLength;
    // What the client took in each quarter of the window, newest last: judged over the last whole window.
    const TICKS = 4;
    const quarters: number[] = [];
    let before = taken();
    const timer = setInterval(
      () => {
        const now = taken();
        quarters.push(now - before);
        before = now;
        if (quarters.length > TICKS) quarters.shift();
        const inWindow = quarters.reduce((a, b) => a + b, 0);
        if (quarters.length === TICKS && inWindow < needed) {
          // Ending the stream ends the response and the query behind it.
          stream.destroy(new Error(`CSV download: the client took ${inWindow} bytes in ${windowMs} ms, under the minimum`));
        }
      },
      Math.max(50, Math.floor(windowMs / TICKS)),
    );
    timer.unref();
    stream.once('close', () => clearInterval(timer));
  }
}
