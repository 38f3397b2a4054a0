// Judging a job: every comparison row gets the outcome of the first rule of a rule set version it
// matches, computed in SQL and stored in job_decisions, so the job page filters, sorts and counts by
// decision like any column. One transaction: the version and time on the job and every row's new
// decision (INSERT … SELECT over the comparison), so readers see one judgement or the other.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobDecisions, jobs } from '../db/schema.ts';
import { comparisonTable } from '../comparison/query.ts';
import { feeSchedulesInForce } from '../fees/repository.ts';
import type { JobRow } from '../jobs/repository.ts';
import { compileRules, decisionCases } from './rules-sql.ts';

/** Judges the job with the version (its rules as stored: compileRules reads them defensively); returns the job as written (its version and judged_at). */
export async function judgeJob(db: Db, job: JobRow, version: { id: number; rules: readonly unknown[] }): Promise<JobRow> {
  const { ruleIndex, outcome } = decisionCases(compileRules(version.rules));
  // Rules may use the estimated profit, which the fee schedules in force decide.
  const fees = await feeSchedulesInForce(db);
  return db.transaction(async (tx) => {
    // First: the job's row lock orders concurrent judges of one job (the worker's and a user's).
    // updated_at stays: it is the job's last change the decisions are compared with (stale or not).
    const [judged] = await tx
      .update(jobs)
      .set({ rule_set_version_id: version.id, judged_at: sql`now()` })
      .where(eq(jobs.id, job.id))
      .returning();
    if (!judged) return job; // deleted meanwhile: nothing to judge
    // Raw SQL on purpose: INSERT … SELECT over the comparison's derived table (without its stored
    // decisions), one statement whatever the job's size. Every comparison row gets its decision; a
    // row whose decision stays the same is not written again (re-judging after a small change of
    // rules or prices rewrites only what changed, instead of deleting and inserting every row).
    await tx.execute(sql`
      INSERT INTO ${jobDecisions} AS d (job_id, row_id, rule_index, outcome)
      SELECT ${job.id}::int, id, ${ruleIndex}, ${outcome} FROM ${comparisonTable(job, { fees, decisions: false })}
      ON CONFLICT (job_id, row_id) DO UPDATE SET rule_index = excluded.rule_index, outcome = excluded.outcome
      WHERE (d.rule_index, d.outcome) IS DISTINCT FROM (excluded.rule_index, excluded.outcome)`);
    return judged;
  });
}
