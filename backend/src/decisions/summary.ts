// A job's decisions at a glance: the rule set version it was judged with, when, whether the job
// changed since (prices re-looked up), and per outcome its colour and how many rows have it.
import { NO_RULE, type RuleColor } from '@app/domain/rules';
import { count, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobDecisions } from '../db/schema.ts';
import type { JobRow } from '../jobs/repository.ts';
import { compileRules } from './rules-sql.ts';
import { readRuleSetVersion } from '../rules/repository.ts';

export async function jobDecisionsSummary(db: Db, job: JobRow) {
  const version = job.rule_set_version_id ? await readRuleSetVersion(db, job.rule_set_version_id) : undefined;
  // Served by the (job, outcome, row) index; nothing to count before the job is judged.
  const counted = job.judged_at
    ? await db
        .select({ outcome: jobDecisions.outcome, n: count() })
        .from(jobDecisions)
        .where(eq(jobDecisions.job_id, job.id))
        .groupBy(jobDecisions.outcome)
    : [];
  const counts = new Map(counted.map((c) => [c.outcome, c.n]));
  // Every outcome of the version in rule order (its first rule's colour), "No rule" last; zeros included.
  const outcomes = new Map<string, RuleColor>();
  for (const r of compileRules(version?.rules)) if (r.outcome !== NO_RULE && !outcomes.has(r.outcome)) outcomes.set(r.outcome, r.color);
  outcomes.set(NO_RULE, 'gray');
  for (const o of counts.keys()) if (!outcomes.has(o)) outcomes.set(o, 'gray');
  return {
    job_id: job.id,
    rule_set: version ? { id: version.rule_set_id, name: version.name, version: version.version, version_id: version.id } : null,
    judged_at: job.judged_at,
    // The job changed after it was judged (a re-price's answers, a retry): its decisions may be out of date.
    stale: job.judged_at !== null && job.judged_at < job.updated_at,
    outcomes: job.judged_at ? [...outcomes].map(([outcome, color]) => ({ outcome, color, count: counts.get(outcome) ?? 0 })) : [],
  };
}
