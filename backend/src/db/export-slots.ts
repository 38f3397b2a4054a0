// CSV downloads share a few slots per process, and each user only some of them: a user's slow or
// forgotten downloads cannot turn everyone else's away. A download holds its slot until its
// response ends; one that moves too little (a client that stopped reading, or reads at a crawl) is
// ended, so its slot (and on PostgreSQL its export connection) comes back. On the embedded
// database this is the only limit: each page of an export runs on the one connection everything
// shares.
import { PassThrough, Transform, pipeline, type Readable } from 'node:stream';
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

export class ExportSlots {
  private readonly slots: Gate;
  private readonly perUser: PerKeyLimit;

  constructor(private readonly limits: ExportLimits) {
    this.slots = new Gate(limits.maxConcurrent, SLOT_WAIT_MS);
    this.perUser = new PerKeyLimit(limits.maxPerUser);
  }

  /**
   * Runs `start` in a slot of `userId`'s and answers its stream, watched; the slot is given back
   * when the stream ends, fails or is ended for moving too little. Answers 503 when every slot of
   * the process stays taken for a moment and 429 when the user's are.
   */
  async run(userId: string, start: () => Promise<Readable>): Promise<Readable> {
    const { maxPerUser } = this.limits;
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
      const watched = this.watch(await start());
      watched.once('close', release);
      return watched;
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * The stream as the client receives it, counting what passes: the count only moves as fast as
   * the client reads (backpressure), so a window with too little ends the download.
   */
  private watch(source: Readable): Readable {
    const { windowMs, minBytesPerSecond } = this.limits;
    const needed = (minBytesPerSecond * windowMs) / 1000;
    let moved = 0;
    const counter = new Transform({
      transform(chunk: Buffer | string, _enc, done) {
        moved += chunk.length;
        done(null, chunk);
      },
    });
    const out = new PassThrough();
    // What moved in each quarter of the window, newest last: judged over the last whole window.
    const TICKS = 4;
    const quarters: number[] = [];
    const timer = setInterval(
      () => {
        quarters.push(moved);
        moved = 0;
        if (quarters.length > TICKS) quarters.shift();
        const inWindow = quarters.reduce((a, b) => a + b, 0);
        if (quarters.length === TICKS && inWindow < needed) {
          out.destroy(new Error(`CSV download moved ${inWindow} bytes in ${windowMs} ms, under the minimum`));
        }
      },
      Math.max(50, Math.floor(windowMs / TICKS)),
    );
    timer.unref();
    out.once('close', () => clearInterval(timer));
    // Ending the response ends the query behind it too (pipeline destroys every stream).
    pipeline(source, counter, out, () => {});
    return out;
  }
}
