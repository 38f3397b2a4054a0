// Judging a job: every comparison row gets the outcome of the first rule of a rule set version it
// matches, computed in SQL and stored in job_decisions, so the job page filters, sorts and counts by
// decision like any column.
//
// In committed steps over ranges of the job's row ids, giving way between them (issue 29: ONE
// statement over a 150k-row job with 50 rules × 20 conditions held the embedded database, so every
// request and the health check, for 36 s). A step's rows are fewer the more conditions the rules
// test, so each step costs about the same (JUDGE_STEP_COST). The same on both engines: the worker's
// automatic judge does not know which it runs on, and a step holds a PostgreSQL connection and the
// job's row lock briefly instead of for the whole job.
//
// Readers see each step's decisions as it commits: while a judge runs, rows already judged show
// their new decision. The job records its version and judged_at when the judge starts; judged_at
// is also the judge's token: a later judge of the same job (a user's while the worker's runs, or
// the other way round) takes the token over, and the earlier one stops at its next step, so the
// last to start decides every row. A judge that fails leaves the job not judged (judged_at NULL):
// its decisions may be half old, half new, and the job page offers to judge it again.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobDecisions, jobs, LOOKUP_TABLES } from '../db/schema.ts';
import { baseMarketplace, comparisonTable } from '../comparison/query.ts';
import { feeSchedulesInForce } from '../fees/repository.ts';
import { idRanges } from '../jobs/control.ts';
import type { JobRow } from '../jobs/repository.ts';
import { compileRules, conditionCount, decisionCases } from './rules-sql.ts';
import { inBackground } from '../db/work-lane.ts';
import { evaluateDecisionWatches } from '../watches/evaluate.ts';

/**
 * What one step may cost, in row-conditions: rows × (ROW_COST + conditions). Measured on the
 * embedded database (npm run bench -- judge, with the costliest rules: text matches) on a loaded
 * 2-core machine: ~2 µs a row-condition, so ~60 ms a step there whatever the rules (~250 rows with
 * the 100 conditions a set may have, ~1,250 with 4), and a fraction of it on an idle one.
 */
export const JUDGE_STEP_COST = 30_000;
/** Building one comparison row (its joins and computed columns), in conditions. */
export const ROW_COST = 20;
/** Bounds of a step's rows whatever the rules: a step is never empty nor one statement over a whole job. */
const MIN_STEP_ROWS = 100;
const MAX_STEP_ROWS = 5_000;

/** The rows a step judges with rules testing `conditions` conditions. */
export const stepRowsFor = (conditions: number): number =>
  Math.min(MAX_STEP_ROWS, Math.max(MIN_STEP_ROWS, Math.floor(JUDGE_STEP_COST / (ROW_COST + conditions))));

/**
 * Judges the job with the version (its rules as stored: compileRules reads them defensively);
 * returns the job as written (its version and judged_at) once every step is done or a later judge
 * of the job took over.
 */
export function judgeJob(db: Db, job: JobRow, version: { id: number; rules: readonly unknown[] }): Promise<JobRow> {
  // Judging in steps is background work on the one session: a person's page goes before each next step.
  return inBackground(() => judgeInSteps(db, job, version));
}

async function judgeInSteps(db: Db, job: JobRow, version: { id: number; rules: readonly unknown[] }): Promise<JobRow> {
  const rules = compileRules(version.rules);
  const { ruleIndex, outcomeOf } = decisionCases(rules);
  // Rules may use the estimated profit, which the fee schedules in force decide.
  const fees = await feeSchedulesInForce(db);
  // updated_at stays: it is the job's last change the decisions are compared with (stale or not).
  // Milliseconds, so the token compares equal as JavaScript holds it.
  const [judged] = await db
    .update(jobs)
    .set({ rule_set_version_id: version.id, judged_at: sql`date_trunc('milliseconds', clock_timestamp())` })
    .where(eq(jobs.id, job.id))
    .returning();
  if (!judged?.judged_at) return job; // deleted meanwhile: nothing to judge
  const token = judged.judged_at;
  const stillOurs = and(eq(jobs.id, job.id), eq(jobs.judged_at, token), eq(jobs.rule_set_version_id, version.id));
  const base = baseMarketplace(judged);
  try {
    for await (const ids of idRanges(db, base, eq(LOOKUP_TABLES[base.id].isbn_lookup_job_id, job.id), stepRowsFor(conditionCount(rules)))) {
      const carriedOn = await db.transaction(async (tx) => {
        // The job's row lock orders this step and a later judge's start: once that commits, this judge stops.
        const [ours] = await tx.select({ id: jobs.id }).from(jobs).where(stillOurs).for('update');
        if (!ours) return false;
        // A step reads a few hundred rows by id: each other marketplace's row is one index lookup
        // on (job, ISBN). A hash join reads all the job's rows of those tables in every step instead
        // (measured: 3/4 of a step's time on 20k rows, and it grows with the job: O(n²) over the job).
        await tx.execute(sql`SET LOCAL enable_hashjoin = off`);
        await tx.execute(sql`SET LOCAL enable_mergejoin = off`);
        // Raw SQL on purpose: INSERT … SELECT over the comparison's derived table (without its
        // stored decisions). A row whose decision stays the same is not written again (re-judging
        // after a small change of rules or prices rewrites only what changed).
        const range = ({ id }: { id: SQL }) => sql`${id} >= ${ids.from} AND ${id} < ${ids.to}`;
        await tx.execute(sql`
          INSERT INTO ${jobDecisions} AS d (job_id, row_id, rule_index, outcome)
          SELECT ${job.id}::int, id, rule_index, ${outcomeOf(sql`rule_index`)}
          FROM (SELECT id, ${ruleIndex} AS rule_index FROM ${comparisonTable(judged, { fees, decisions: false, only: range })}) judged
          ON CONFLICT (job_id, row_id) DO UPDATE SET rule_index = excluded.rule_index, outcome = excluded.outcome
          WHERE (d.rule_index, d.outcome) IS DISTINCT FROM (excluded.rule_index, excluded.outcome)`);
        // Watches on the decision ("tell me when it becomes Buy") read these rows' new decisions, in this step.
        await evaluateDecisionWatches(tx, judged, range);
        return true;
      });
      if (!carriedOn) break;
      // PGlite runs one statement at a time: other requests (and the worker) go between steps.
      await nextTurn();
    }
  } catch (err) {
    // Half judged: not judged, unless a later judge took over (its own outcome stands).
    await db.update(jobs).set({ judged_at: null }).where(stillOurs);
    throw err;
  }
  // As it now is: a later judge may have taken over (its version is the job's).
  const [now] = await db.select().from(jobs).where(eq(jobs.id, job.id));
  return now ?? judged;
}
