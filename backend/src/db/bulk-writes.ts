// How a big write (a job's lookups stored, moved or deleted) runs: the other thing besides CSV
// export that the engines do differently, chosen once when the database is opened (db/client.ts)
// and handed to features on the context, so no job action asks which engine it is on.
// PostgreSQL: ONE transaction, whatever its size; other connections go on meanwhile.
// PGlite: one in-process session, so one long transaction holds every request (a 150k-ISBN paste
// held it ~25 s). The write goes as background work in committed steps over ranges of ids, giving
// way between them; it is no longer atomic, so a part that must be undone says how.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { max, min, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './db-types.ts';
import { analyzeIfGrown } from './planner-statistics.ts';
import { inBackground } from './work-lane.ts';

/**
 * Rows per committed step on the embedded database, for inserts and status changes alike.
 * npm run bench -- big-paste (150k × 4, quiet): at 2,500 rows the readiness check waited up to
 * 609 ms (p95 237) and the paste took 40 s; at 1,000, 157–196 ms (p95 77) and 31–33 s. Changing a
 * lookup's status rewrites the row and every index entry of it: 1,000 rows hold PGlite for a few
 * tens of ms on a quiet machine (npm run bench -- abuse).
 */
export const EMBEDDED_STEP_ROWS = 1_000;

/**
 * The statistics sample after a big write on the embedded database (PostgreSQL's default is 100, a
 * 30,000-row sample): the plans that matter need the table's size and the few statuses, which a
 * 3,000-row sample gives as well. 150k rows: 140–210 ms at the default sample, 18 ms at a tenth.
 */
const EMBEDDED_STATISTICS_TARGET = 10;

/** An id range [from, to) of one step; undefined: every row (one transaction). */
export type IdRange = { from: number; to: number } | undefined;

/** The parts of one big write, as `BulkWrites.run` hands them to it. */
export interface BulkWrite {
  /** Most rows a step touches (Infinity: one transaction, one step for everything). */
  readonly stepRows: number;
  /**
   * Runs `work`: in the write's one transaction, or committed in a transaction of its own. `undo`
   * takes back what it committed should a later part fail (a transaction's rollback does that itself).
   */
  part<T>(work: (tx: Tx) => Promise<T>, undo?: (done: T) => Promise<unknown>): Promise<T>;
  /** A part over many rows, one of a loop: committed steps give way to other work after each. */
  step<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** The id ranges of the rows of `table` matching `where`, one per step (one transaction: one, undefined). */
  ranges(table: PgTable, id: PgColumn, where: SQL | undefined): AsyncIterable<IdRange>;
}

type WarnLog = { warn(details: object, message: string): void };

export interface RunOptions {
  /**
   * Wraps a write that goes in steps (another write could run between them): counts it as in
   * progress, or keeps a second action on the same job out. One transaction needs neither.
   */
  whileStepping?: <T>(write: () => Promise<T>) => Promise<T>;
  /** Called after each committed step (a live page can show the progress made so far). */
  afterStep?: () => void;
}

export interface BulkWrites {
  /** Runs `write` on `db` with this engine's parts. */
  run<T>(db: Db, write: (w: BulkWrite) => Promise<T>, opts?: RunOptions): Promise<T>;
  /** ANALYZEs the tables a big write grew (db/planner-statistics.ts), as this engine can afford it. */
  analyzeIfGrown(db: Db, tables: readonly string[], addedRows: number, log?: WarnLog): Promise<void>;
}

/** PostgreSQL's: the whole write in ONE transaction. */
export const oneTransaction: BulkWrites = {
  run: (db, write) =>
    db.transaction((tx) =>
      write({
        stepRows: Number.POSITIVE_INFINITY,
        part: (work) => work(tx),
        step: (work) => work(tx),
        ranges: async function* () {
          yield undefined;
        },
      }),
    ),
  analyzeIfGrown: (db, tables, addedRows, log) => analyzeIfGrown(db, tables, addedRows, log),
};

/** The embedded database's: background work in committed steps of `stepRows`, giving way between them. */
export const inSteps = (stepRows = EMBEDDED_STEP_ROWS): BulkWrites => ({
  run: async (db, write, opts = {}) => {
    const undos: Array<() => Promise<unknown>> = [];
    const w: BulkWrite = {
      stepRows,
      part: async (work, undo) => {
        const result = await db.transaction(work);
        if (undo) undos.push(() => undo(result));
        return result;
      },
      step: async (work) => {
        const result = await db.transaction(work);
        opts.afterStep?.();
        // PGlite runs one statement at a time: other requests (and the worker) go between steps.
        await nextTurn();
        return result;
      },
      ranges: (table, id, where) => idRanges(db, table, id, where, stepRows),
    };
    const stepped = async () => {
      try {
        // Background work on the one session: a person's page goes before each next step.
        return await inBackground(() => write(w));
      } catch (err) {
        for (const undo of undos.reverse()) await undo();
        throw err;
      }
    };
    return opts.whileStepping ? opts.whileStepping(stepped) : stepped();
  },
  // Background work, and a smaller sample: each ANALYZE holds the one session.
  analyzeIfGrown: (db, tables, addedRows, log) =>
    inBackground(() => analyzeIfGrown(db, tables, addedRows, log, EMBEDDED_STATISTICS_TARGET)),
});

/**
 * The id ranges of `stepRows` ids covering the rows of `table` matching `where`, each read by
 * primary key in its step whatever the table's size (the bounds are read once, before the steps).
 */
export async function* idRanges(db: Db, table: PgTable, id: PgColumn, where: SQL | undefined, stepRows: number) {
  const [bounds] = await db
    .select({ lo: min(id), hi: max(id) })
    .from(table)
    .where(where);
  if (bounds?.lo == null || bounds.hi == null) return;
  for (let lo = Number(bounds.lo); lo <= Number(bounds.hi); lo += stepRows) yield { from: lo, to: lo + stepRows };
}
