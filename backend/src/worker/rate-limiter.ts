// Requests per second for one marketplace across EVERY worker process: the next free request slot
// lives in PostgreSQL (marketplace_rate_slots), so N workers together stay within the marketplace's
// rate instead of sending N × rate. Slots are spaced 1/rate apart (no burst after a quiet spell).
// To spare the database a round trip per request, a worker reserves a block of slots at a time
// (about 100 ms worth, at most `maxBlock`) and hands them out locally, in order.
import { must } from '@app/domain/must';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { marketplaceRateSlots } from '../db/schema.ts';

const BLOCK_MS = 100;

export class RateLimiter {
  private readonly intervalMs: number;
  private readonly blockSize: number;
  /** Reserved slot times (performance.now() clock), earliest first. */
  private slots: number[] = [];
  private reserving: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly marketplace: string,
    ratePerSecond: number,
    maxBlock: number,
  ) {
    this.intervalMs = 1000 / ratePerSecond;
    this.blockSize = Math.max(1, Math.min(maxBlock, Math.floor(BLOCK_MS / this.intervalMs)));
  }

  /** Resolves when the caller may send; rejects if the signal aborts first (the slot is then lost). */
  async take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      // A slot left over from a quiet spell is dropped: using many late would bunch requests together.
      // (Slots up to one block late are kept, so a burst is at most one block, ~100 ms of the rate.)
      while ((this.slots[0] ?? Infinity) < performance.now() - BLOCK_MS) this.slots.shift();
      const slot = this.slots.shift();
      // Top up before running dry, so callers rarely wait on the database round trip.
      // A failure here is not lost: the next caller that runs dry awaits a fresh attempt and sees it.
      if (this.slots.length < this.blockSize / 2) this.refill().catch(() => {});
      if (slot !== undefined) {
        const wait = slot - performance.now();
        if (wait > 0) await sleep(wait, undefined, { signal });
        return;
      }
      await this.refill();
    }
  }

  private refill(): Promise<void> {
    this.reserving ??= this.reserve().finally(() => (this.reserving = undefined));
    return this.reserving;
  }

  /** Moves the shared next-free slot on by one block and keeps the block's slots. */
  private async reserve(): Promise<void> {
    const blockMs = this.blockSize * this.intervalMs;
    const slots = marketplaceRateSlots;
    const block = sql`${blockMs} * interval '1 millisecond'`;
    const [reserved] = await this.db
      .insert(slots)
      .values({ marketplace: this.marketplace, next_at: sql`clock_timestamp() + ${block}` })
      .onConflictDoUpdate({ target: slots.marketplace, set: { next_at: sql`greatest(${slots.next_at}, clock_timestamp()) + ${block}` } })
      .returning({ until_end_ms: sql<number>`(extract(epoch FROM ${slots.next_at} - clock_timestamp()) * 1000)::float8` });
    const start = performance.now() + Number(must(reserved, 'INSERT … RETURNING gives a row').until_end_ms) - blockMs;
    for (let i = 0; i < this.blockSize; i++) this.slots.push(start + i * this.intervalMs);
  }
}
