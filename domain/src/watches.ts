// Watches: "tell me when this book (or any book of this job) meets these conditions". A watch's
// conditions are the rule builder's condition rows (rules.ts), over the same comparison fields, checked
// by the same function, so the editor and the API refuse the same conditions with the same words.
import { COMPARISON_FIELDS } from './comparison.ts';
import { OPERATOR_LABELS, type FieldDef, type Filter, type FilterOperator } from './fields.ts';
import { CONDITIONS_MAX, conditionProblem, type RuleDraft, type RuleIssue } from './rules.ts';

/**
 * The fields a watch's condition may test: a rule's (every filterable comparison field but the id),
 * and the decision, which a rule cannot test but a watch can ("tell me when it becomes Buy"): such a
 * watch is evaluated when the job's decisions are judged.
 */
export const WATCH_FIELDS: readonly FieldDef[] = COMPARISON_FIELDS.filter((f) => f.filterable && f.name !== 'id');

export const WATCH_NAME_MAX_LENGTH = 255;
/** Conditions per watch: as many as a rule may have. */
export const WATCH_CONDITIONS_MAX = CONDITIONS_MAX;

/** A book fires at most once per this period per watch, however often its conditions flap. */
export const WATCH_FIRE_PERIOD_HOURS = 24;
/** A user's watch digest goes out at most once per this period. */
export const WATCH_DIGEST_PERIOD_MINUTES = 60;

/** What the API takes (the conditions as typed; the name optional). */
export interface WatchDraft {
  name?: string | null | undefined;
  conditions: RuleDraft['conditions'];
}

/** Every problem of a watch's name and conditions, located relative to the request body; none means it can be saved. */
export function validateWatch(input: WatchDraft): RuleIssue[] {
  const issues: RuleIssue[] = [];
  if (input.name != null && input.name.trim().length > WATCH_NAME_MAX_LENGTH)
    issues.push({ path: ['name'], message: `Name must be at most ${WATCH_NAME_MAX_LENGTH} characters` });
  issues.push(...validateWatchConditions(input.conditions));
  return issues;
}

/** The conditions alone (a PATCH may change only them): at least one, at most WATCH_CONDITIONS_MAX, each a valid rule condition. */
export function validateWatchConditions(conditions: RuleDraft['conditions']): RuleIssue[] {
  const issues: RuleIssue[] = [];
  if (conditions.length === 0) issues.push({ path: ['conditions'], message: 'Add at least one condition' });
  else if (conditions.length > WATCH_CONDITIONS_MAX)
    issues.push({ path: ['conditions'], message: `A watch has at most ${WATCH_CONDITIONS_MAX} conditions` });
  for (const [j, c] of conditions.entries()) {
    const problem = conditionProblem(c, WATCH_FIELDS);
    if (problem) issues.push({ path: ['conditions', j, problem.part], message: problem.message });
  }
  return issues;
}

/** Conditions validateWatchConditions passed, as stored: only the known keys. */
export const normalizeWatchConditions = (conditions: RuleDraft['conditions']): Filter[] =>
  conditions.map(({ field, operator, value }) => ({ field, operator: operator as FilterOperator, value }));

/** Notifications per page of GET /notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

/** Conditions as a sentence ("Best Price greater or equal 20 and Sales Rank less or equal 300000"), for alerts and the digest. */
export const describeConditions = (conditions: readonly Filter[]): string =>
  conditions
    .map((c) => `${WATCH_FIELDS.find((f) => f.name === c.field)?.label ?? c.field} ${OPERATOR_LABELS[c.operator] ?? c.operator} ${c.value}`)
    .join(' and ');
