// Judging jobs as their last lookup ends: a job that records a rule set version (the team default
// at its creation, or the one it was last judged with) is judged again once all its lookups are done
// and it changed since it was judged. The worker hands over the jobs each write moved; one cheap
// query per batch of them (job_progress and the jobs' rows) finds those due, apart from the
// worker's hot statements, and judging runs beside the worker's writes, one job at a time.
import { and, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Logger } from '../core/logging.ts';
import type { JobEvents } from '../core/job-events.ts';
import type { Db } from '../db/client.ts';
import { jobProgress, jobs } from '../db/schema.ts';
import { judgeJob } from './judge.ts';
import { readRuleSetVersion } from '../rules/repository.ts';

/** The jobs among `ids` whose lookups are all done, that have a version and were not judged since their last change. */
function dueJobs(db: Db, ids: number[]) {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        inArray(jobs.id, ids),
        isNotNull(jobs.rule_set_version_id),
        or(isNull(jobs.judged_at), lt(jobs.judged_at, jobs.updated_at)),
        sql`NOT EXISTS (SELECT 1 FROM ${jobProgress} p WHERE p.job_id = ${jobs.id} AND p.processed < p.total)`,
      ),
    );
}

export class FinishedJobsJudge {
  private readonly pending = new Set<number>();
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: Pick<Logger, 'error'>,
    private readonly jobEvents: Pick<JobEvents, 'touched'>,
  ) {}

  /** These jobs' lookups moved: judge those now due (in the background; `idle()` waits for it). */
  check(jobIds: number | readonly number[]): void {
    for (const id of typeof jobIds === 'number' ? [jobIds] : jobIds) this.pending.add(id);
    if (this.pending.size && !this.running) this.running = this.drain().finally(() => (this.running = undefined));
  }

  /** Resolves once every job handed over has been checked (and judged when due). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending.size) {
      const ids = [...this.pending];
      this.pending.clear();
      try {
        for (const job of await dueJobs(this.db, ids)) {
          const version = job.rule_set_version_id ? await readRuleSetVersion(this.db, job.rule_set_version_id) : undefined;
          if (!version) continue;
          await judgeJob(this.db, job, version);
          this.jobEvents.touched(job.id);
        }
      } catch (err) {
        // The decisions stay as they were; the job page offers to re-judge.
        this.log.error({ err, jobs: ids }, 'judging finished jobs failed');
      }
    }
  }
}
