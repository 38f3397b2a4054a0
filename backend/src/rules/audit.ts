// Audit events of rule set changes (rules/routes.ts). The team default decides every member's new
// jobs, so who chose it (and what it replaced) is a privileged change the trail must show; saves and
// deletes are recorded too, with the version written, so a decision can be traced to who wrote it.
import type { FastifyRequest } from 'fastify';
import { auditStep, requestActor } from '../audit/record.ts';
import type { TxStep } from '../db/tx-step.ts';
import type { DeletedRuleSet, RuleSetView, TeamDefaultChange } from './repository.ts';

const target = (set: { id: number; name: string }) => ({ type: 'rule_set' as const, id: set.id, label: set.name });

/** A set created (version 1) or a new version saved. */
export const auditRuleSetSaved = (req: FastifyRequest, action: 'rule_set.created' | 'rule_set.updated'): TxStep<RuleSetView> =>
  auditStep(requestActor(req), (set) => ({
    action,
    target: target(set),
    details: { version: set.version, version_id: set.version_id, rules: set.rules.length, is_team_default: set.is_team_default },
  }));

export const auditRuleSetDeleted = (req: FastifyRequest): TxStep<DeletedRuleSet> =>
  auditStep(requestActor(req), (set) => ({
    action: 'rule_set.deleted',
    target: target(set),
    details: { was_team_default: set.was_team_default },
  }));

/** The team default chosen (naming the set it replaced) or no longer the default. */
export const auditTeamDefault = (req: FastifyRequest, isDefault: boolean): TxStep<TeamDefaultChange> =>
  auditStep(requestActor(req), ({ set, replaced }) => ({
    action: isDefault ? 'rule_set.team_default_set' : 'rule_set.team_default_unset',
    target: target(set),
    details: {
      version: set.version,
      version_id: set.version_id,
      ...(replaced ? { replaced: { id: replaced.id, name: replaced.name } } : {}),
    },
  }));
