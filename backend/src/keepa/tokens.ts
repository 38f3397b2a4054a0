// Keepa's token bucket shared by every worker through the database (keepa_tokens), like the
// marketplaces' rate slots: each answer's envelope (tokensLeft, refillRate) is written back as the
// truth, and before a request a worker reserves its estimated cost from the balance projected with
// the refill since then. Keepa runs a request as long as the balance is positive (it may then go
// negative), so a worker waits only while the projected balance is not positive; reserving the cost
// first keeps a second worker from sending its batch into a balance the first one just spent.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { keepaTokens } from '../db/schema.ts';
import type { KeepaTokenState } from './wire.ts';

/** The one row of keepa_tokens. */
const ROW = 1;
/** Unused tokens expire after an hour, so the balance never grows past an hour of refill. */
const CAP_MINUTES = 60;
/** The longest single wait before looking at the shared state again (another worker may update it). */
const MAX_WAIT_MS = 60_000;

export class KeepaTokens {
  constructor(private readonly db: Db) {}

  /**
   * Takes `cost` tokens from the shared balance, waiting while it is not positive. With no state yet
   * (Keepa never asked) it goes at once: the answer's envelope sets the state.
   */
  async take(cost: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = await this.reserve(cost);
      if (waitMs === 0) return;
      await sleep(Math.min(waitMs, MAX_WAIT_MS), undefined, { signal });
    }
  }

  /** 0 when `cost` was reserved, else how long until the projected balance is positive. */
  async reserve(cost: number): Promise<number> {
    const t = keepaTokens;
    const minutes = sql`extract(epoch FROM clock_timestamp() - ${t.at}) / 60`;
    const projected = sql`least(${t.tokens_left} + ${t.refill_rate} * ${minutes}, ${t.refill_rate} * ${CAP_MINUTES})`;
    // One statement: the row is locked while it moves, so two workers never reserve the same tokens.
    const { rows } = await this.db.execute<{ reserved: boolean; projected: number; refill_rate: number }>(sql`
      WITH cur AS (SELECT ${projected} AS projected, ${t.refill_rate} AS refill_rate FROM ${t} WHERE ${t.id} = ${ROW} FOR UPDATE),
      moved AS (
        UPDATE ${t} SET tokens_left = (SELECT projected FROM cur) - ${cost}, at = clock_timestamp()
        WHERE ${t.id} = ${ROW} AND (SELECT projected FROM cur) > 0
        RETURNING 1
      )
      SELECT EXISTS (SELECT 1 FROM moved) AS reserved, projected::float8 AS projected, refill_rate::float8 AS refill_rate FROM cur`);
    const row = rows[0];
    if (!row || row.reserved) return 0;
    // Positive again once the deficit is refilled: (1 - projected) tokens at refill_rate a minute.
    return Math.ceil(((1 - Number(row.projected)) / Math.max(Number(row.refill_rate), 1e-6)) * 60_000);
  }

  /** Writes an answer's token state as the shared truth (an error body's zeros are no state: see readTokenState). */
  async update(state: KeepaTokenState): Promise<void> {
    const t = keepaTokens;
    await this.db
      .insert(t)
      .values({ id: ROW, tokens_left: state.tokensLeft, refill_rate: state.refillRate, at: sql`clock_timestamp()` })
      .onConflictDoUpdate({
        target: t.id,
        set: { tokens_left: sql`excluded.tokens_left`, refill_rate: sql`excluded.refill_rate`, at: sql`excluded.at` },
      });
  }

  /** The shared state, projected to now (for tests and the logs). */
  async read(): Promise<{ tokensLeft: number; refillRate: number } | undefined> {
    const { rows } = await this.db.execute<{ tokens_left: number; refill_rate: number }>(
      sql`SELECT tokens_left::float8 AS tokens_left, refill_rate::float8 AS refill_rate FROM ${keepaTokens} WHERE id = ${ROW}`,
    );
    const r = rows[0];
    return r ? { tokensLeft: Number(r.tokens_left), refillRate: Number(r.refill_rate) } : undefined;
  }
}
