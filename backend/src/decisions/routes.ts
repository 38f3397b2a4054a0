// Judging jobs with buy rules: judge with a rule set's current version, re-judge with the same
// version (after prices changed), read the decisions' summary, and list the rule sets a user may
// judge with. Jobs follow the jobs' rule (owner or superuser; another's job is 404).
import type { App, AppContext } from '../core/context.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { HttpError } from '../lib/http-errors.ts';
import { findVisibleJob, type JobRow } from '../jobs/repository.ts';
import { JobIdParam } from '../jobs/routes.ts';
import { currentUser } from '../users/current-user.ts';
import { judgeJob } from './judge.ts';
import { JobDecisions, JudgeBody, JudgeRuleSets } from './schemas.ts';
import { jobDecisionsSummary } from './summary.ts';
import { currentUsableVersion, listUsableRuleSets } from './versions.ts';
import { readRuleSetVersion, type RuleSetVersion } from '../rules/repository.ts';

const tags = ['jobs'];

export function decisionRoutes(app: App, ctx: AppContext): void {
  /** Judges the job, tells its viewers (live updates) and answers its decisions as they now are. */
  async function judgeAndSummarise(job: JobRow, version: RuleSetVersion) {
    const judged = await judgeJob(ctx.db, job, version);
    ctx.jobEvents.touched(job.id);
    return jobDecisionsSummary(ctx.db, judged);
  }

  app.get('/jobs/:id/decisions', {
    schema: {
      operationId: 'readJobDecisions',
      tags,
      summary: "The job's rule set version, when it was judged, and how many rows have each decision",
      params: JobIdParam,
      response: { 200: JobDecisions, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => jobDecisionsSummary(ctx.db, await findVisibleJob(ctx.db, currentUser(req), req.params.id)),
  });

  app.post('/jobs/:id/judge', {
    schema: {
      operationId: 'judgeJob',
      tags,
      summary: "Decide every row of the job with the rule set's current version (the first matching rule wins)",
      params: JobIdParam,
      body: JudgeBody,
      response: { 200: JobDecisions, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const user = currentUser(req);
      const job = await findVisibleJob(ctx.db, user, req.params.id);
      return judgeAndSummarise(job, await currentUsableVersion(ctx.db, user, req.body.rule_set_id));
    },
  });

  app.post('/jobs/:id/rejudge', {
    schema: {
      operationId: 'rejudgeJob',
      tags,
      summary: 'Decide the job again with the version it was judged with (after its prices changed)',
      params: JobIdParam,
      response: { 200: JobDecisions, 404: HttpErrorBody, 409: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const job = await findVisibleJob(ctx.db, currentUser(req), req.params.id);
      const version = job.rule_set_version_id ? await readRuleSetVersion(ctx.db, job.rule_set_version_id) : undefined;
      if (!version) throw new HttpError(409, 'This job has not been judged yet: choose a rule set to judge it with.');
      return judgeAndSummarise(job, version);
    },
  });

  app.get('/decisions/rule-sets', {
    schema: {
      operationId: 'listJudgeRuleSets',
      tags,
      summary: 'The rule sets the user may judge jobs with (their own and the team default), each with its current version',
      response: { 200: JudgeRuleSets },
    },
    handler: async (req) => ({ data: await listUsableRuleSets(ctx.db, currentUser(req)) }),
  });
}
