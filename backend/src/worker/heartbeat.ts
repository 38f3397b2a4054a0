// The worker's sign of life: one row per worker in worker_heartbeats, upserted every `beatMs` with
// the lookups it holds, deleted on a graceful stop. GET /health/workers lists them; a row older
// than three beats is a worker that died or hangs.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { workerHeartbeats } from '../db/schema.ts';
import type { WorkerLog } from './runner.ts';

export class WorkerHeartbeat {
  readonly id = randomUUID();
  private readonly startedAt = new Date();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly beatMs: number,
    private readonly inFlight: () => number,
    private readonly log: WorkerLog,
  ) {}

  start(): void {
    this.beating = this.beat();
    this.timer = setInterval(() => {
      this.beating = this.beating.then(() => this.beat());
    }, this.beatMs);
  }

  /** Stops beating and removes the row: a worker that stopped on purpose is not a stale one. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    try {
      await this.db.delete(workerHeartbeats).where(eq(workerHeartbeats.id, this.id));
    } catch (err) {
      this.log.warn({ err }, 'removing the worker heartbeat failed; it will show as stale');
    }
  }

  private async beat(): Promise<void> {
    const row = { last_seen: sql`now()`, beat_ms: this.beatMs, lookups_in_flight: this.inFlight() };
    try {
      await this.db
        .insert(workerHeartbeats)
        .values({ id: this.id, host: hostname(), pid: process.pid, started_at: this.startedAt, ...row })
        .onConflictDoUpdate({ target: workerHeartbeats.id, set: row });
    } catch (err) {
      // The database is away for a moment; the next beat tries again (the row just ages meanwhile).
      this.log.warn({ err }, 'writing the worker heartbeat failed');
    }
  }
}
