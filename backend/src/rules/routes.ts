// Buy rule sets: users own theirs, anyone reads the team default, superusers see and change all and
// choose the team default. Someone else's set is "not found" (as with items and jobs). Every edit
// is a new version; a delete only marks the set, so jobs keep reading the versions they were judged with.
// The team default decides every member's new jobs: its owner may no longer change or delete it (403
// saying so; the editor offers to save their changes as a new set of their own), superusers may.
import { normalizeRuleSet, validateRuleSet, type RuleSetDraft, type RuleSetInput } from '@app/domain/rules';
import type { App, AppContext } from '../core/context.ts';
import { HttpErrorBody, Message, Paging } from '../lib/api-schemas.ts';
import { HttpError, issuesToHttpError, notFound } from '../lib/http-errors.ts';
import { currentUser } from '../users/current-user.ts';
import {
  createRuleSet,
  deleteRuleSet,
  listRuleSets,
  listVersions,
  readRuleSet,
  setTeamDefault,
  updateRuleSet,
  type Refusal,
  type RuleSetView,
} from './repository.ts';
import { auditRuleSetDeleted, auditRuleSetSaved, auditTeamDefault } from './audit.ts';
import { RuleSetIdParam, RuleSetIn, RuleSetPublic, RuleSetsPublic, RuleSetVersionsPublic, VersionQuery } from './schemas.ts';

const tags = ['rule-sets'];
const su = { access: 'superuser' as const };
const found = (set: RuleSetView | undefined): RuleSetView => {
  if (!set) throw notFound('Rule set');
  return set;
};

export const TEAM_DEFAULT_LOCKED =
  'This rule set is the team default: only a superuser may change or delete it. Save your changes as a new rule set of your own.';
export const DELETED_MESSAGE = 'Rule set deleted successfully';
export const DELETED_TEAM_DEFAULT_MESSAGE =
  'Rule set deleted successfully. It was the team default: new jobs get no team default until a superuser chooses one.';

/** The change made, or the refusal as its answer: 404 for a set the user may not see or change, 403 for the team default. */
function done<T>(result: T | Refusal): T {
  if (result === 'not_found') throw notFound('Rule set');
  if (result === 'team_default') throw new HttpError(403, TEAM_DEFAULT_LOCKED);
  return result;
}

/** The domain's checks as one 422 naming each offending part of the body. */
function validated(body: RuleSetDraft): RuleSetInput {
  const issues = validateRuleSet(body);
  if (issues.length) throw issuesToHttpError(['body'], issues);
  return normalizeRuleSet(body);
}

export function ruleSetRoutes(app: App, ctx: AppContext): void {
  app.get('/rule-sets', {
    schema: {
      operationId: 'readRuleSets',
      tags,
      summary: 'The caller’s rule sets and the team default (superusers: all), each at its current version',
      querystring: Paging,
      response: { 200: RuleSetsPublic },
    },
    handler: (req) => listRuleSets(ctx.db, currentUser(req), req.query),
  });

  app.post('/rule-sets', {
    schema: { operationId: 'createRuleSet', tags, body: RuleSetIn, response: { 200: RuleSetPublic, 422: HttpErrorBody } },
    handler: (req) => createRuleSet(ctx.db, currentUser(req), validated(req.body), auditRuleSetSaved(req, 'rule_set.created')),
  });

  app.get('/rule-sets/:id', {
    schema: {
      operationId: 'readRuleSet',
      tags,
      summary: 'A rule set at its current version, or at `version`',
      params: RuleSetIdParam,
      querystring: VersionQuery,
      response: { 200: RuleSetPublic, 404: HttpErrorBody },
    },
    handler: async (req) => found(await readRuleSet(ctx.db, currentUser(req), req.params.id, req.query.version)),
  });

  app.get('/rule-sets/:id/versions', {
    schema: {
      operationId: 'readRuleSetVersions',
      tags,
      summary: 'Every version of a rule set, newest first',
      params: RuleSetIdParam,
      response: { 200: RuleSetVersionsPublic, 404: HttpErrorBody },
    },
    handler: async (req) => {
      const versions = await listVersions(ctx.db, currentUser(req), req.params.id);
      if (!versions) throw notFound('Rule set');
      return { data: versions, count: versions.length };
    },
  });

  app.put('/rule-sets/:id', {
    schema: {
      operationId: 'updateRuleSet',
      tags,
      summary: 'Save a new version of a rule set (older versions stay as they were); the team default: superusers only',
      params: RuleSetIdParam,
      body: RuleSetIn,
      response: { 200: RuleSetPublic, 403: HttpErrorBody, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) =>
      done(await updateRuleSet(ctx.db, currentUser(req), req.params.id, validated(req.body), auditRuleSetSaved(req, 'rule_set.updated'))),
  });

  app.delete('/rule-sets/:id', {
    schema: {
      operationId: 'deleteRuleSet',
      tags,
      summary:
        'Delete a rule set; the versions jobs were judged with stay readable by those jobs. The team default: superusers only, and then there is no team default',
      params: RuleSetIdParam,
      response: { 200: Message, 403: HttpErrorBody, 404: HttpErrorBody },
    },
    handler: async (req) => {
      const deleted = done(await deleteRuleSet(ctx.db, currentUser(req), req.params.id, auditRuleSetDeleted(req)));
      return { message: deleted.was_team_default ? DELETED_TEAM_DEFAULT_MESSAGE : DELETED_MESSAGE };
    },
  });

  app.post('/rule-sets/:id/team-default', {
    config: su,
    schema: {
      operationId: 'makeTeamDefaultRuleSet',
      tags,
      summary: 'Make the rule set the team default (the one before it stops being it)',
      params: RuleSetIdParam,
      response: { 200: RuleSetPublic, 404: HttpErrorBody },
    },
    handler: async (req) => found(await setTeamDefault(ctx.db, currentUser(req), req.params.id, true, auditTeamDefault(req, true))),
  });

  app.delete('/rule-sets/:id/team-default', {
    config: su,
    schema: {
      operationId: 'unsetTeamDefaultRuleSet',
      tags,
      summary: 'Stop the rule set being the team default',
      params: RuleSetIdParam,
      response: { 200: RuleSetPublic, 404: HttpErrorBody },
    },
    handler: async (req) => found(await setTeamDefault(ctx.db, currentUser(req), req.params.id, false, auditTeamDefault(req, false))),
  });
}
