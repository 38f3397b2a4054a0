// Buy rules: a rule set is an ordered list of rules over the job comparison's fields; the first rule
// whose conditions all hold gives the row its outcome ("Buy", "List on AbeBooks", "Reject"), and a
// row no rule matches reads NO_RULE. The last rule may have no conditions: the "Otherwise" rule,
// which catches every row the rules before it did not (users wrote "ISBN contains 9" for it).
// Shared by the API (validation, judging in SQL) and the editor.
import { COMPARISON_FIELDS } from './comparison.ts';
import { operatorsFor, type FieldDef, type Filter, type FilterOperator } from './fields.ts';
import { filterValueProblem } from './filter-values.ts';

/** Colours an outcome may take (Mantine palette names), so a badge keeps AA contrast in both schemes. */
export const RULE_COLORS = ['green', 'teal', 'blue', 'indigo', 'violet', 'grape', 'pink', 'red', 'orange', 'yellow', 'gray'] as const;
export type RuleColor = (typeof RULE_COLORS)[number];

/** What a row reads when no rule matches; not allowed as an outcome's name. */
export const NO_RULE = 'No rule';

export const OUTCOME_MAX_LENGTH = 64;

/** All conditions must hold (AND); a condition is a filter of the comparison's field table. */
export interface Rule {
  outcome: string;
  color: RuleColor;
  conditions: Filter[];
}

/** How a rule without conditions (allowed last only) reads in the editor and the lists. */
export const OTHERWISE = 'Otherwise';

/** A rule without conditions holds for every row: only the last rule of a set may be one. */
export const isOtherwise = (rule: { conditions: readonly unknown[] }): boolean => rule.conditions.length === 0;

export const OTHERWISE_NOT_LAST = `Only the last rule may have no conditions ("${OTHERWISE}"): add a condition or move it to the end`;

export const RULE_SET_NAME_MAX_LENGTH = 255;
export const RULES_MAX = 50;
export const CONDITIONS_MAX = 20;
/**
 * Conditions in all the rules of a set: what judging one row costs. Judging runs in bounded steps
 * whatever the rules, but the whole judge's work grows with them: RULES_MAX × CONDITIONS_MAX
 * conditions made one judge of a 150k-row job take 36 s of the embedded database (issue 29).
 * 100 (e.g. 20 rules of 5 conditions) keeps that work a tenth of it (npm run bench -- judge).
 */
export const RULE_SET_CONDITIONS_MAX = 100;

/** What the API takes and the editor edits: a name and the ordered rules. */
export interface RuleSetInput {
  name: string;
  rules: Rule[];
}

/**
 * Fields a condition may test: the comparison's filterable fields, except the row id and the
 * decision itself (a rule cannot depend on what the rules decide).
 */
export const ruleFieldsOf = (comparisonFields: readonly FieldDef[]): FieldDef[] =>
  comparisonFields.filter((f) => f.filterable && f.name !== 'id' && f.name !== 'decision');

export const RULE_FIELDS: readonly FieldDef[] = ruleFieldsOf(COMPARISON_FIELDS);

/** One refusal: where it is, relative to the request body (["rules", 2, "conditions", 0, "field"]), and why. */
export interface RuleIssue {
  path: (string | number)[];
  message: string;
}

/** A rule set as typed (the API's schema lets these through; each part is checked here so the editor runs the same checks). */
export interface RuleSetDraft {
  name: string;
  rules: RuleDraft[];
}
export interface RuleDraft {
  outcome: string;
  color: string;
  conditions: { field: string; operator: string; value: string }[];
}

/** Every problem of a rule set, in order; none means it can be saved. */
export function validateRuleSet(input: RuleSetDraft): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const name = input.name.trim();
  if (name === '') issues.push({ path: ['name'], message: 'Name is required' });
  else if (name.length > RULE_SET_NAME_MAX_LENGTH)
    issues.push({ path: ['name'], message: `Name must be at most ${RULE_SET_NAME_MAX_LENGTH} characters` });
  if (input.rules.length === 0) issues.push({ path: ['rules'], message: 'Add at least one rule' });
  else if (input.rules.length > RULES_MAX) issues.push({ path: ['rules'], message: `A rule set has at most ${RULES_MAX} rules` });
  else {
    const conditions = input.rules.reduce((n, r) => n + r.conditions.length, 0);
    if (conditions > RULE_SET_CONDITIONS_MAX)
      issues.push({
        path: ['rules'],
        message: `A rule set has at most ${RULE_SET_CONDITIONS_MAX} conditions in all its rules (this one has ${conditions})`,
      });
  }
  for (const [i, rule] of input.rules.entries()) {
    const last = i === input.rules.length - 1;
    issues.push(...validateRule(rule, last).map((p) => ({ ...p, path: ['rules', i, ...p.path] })));
  }
  return issues;
}

/** `last`: the set's last rule, which may be the Otherwise rule (no conditions). */
function validateRule(rule: RuleDraft, last: boolean): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const outcome = rule.outcome.trim();
  if (outcome === '') issues.push({ path: ['outcome'], message: 'Outcome is required' });
  else if (outcome.length > OUTCOME_MAX_LENGTH)
    issues.push({ path: ['outcome'], message: `Outcome must be at most ${OUTCOME_MAX_LENGTH} characters` });
  else if (outcome.toLowerCase() === NO_RULE.toLowerCase())
    issues.push({ path: ['outcome'], message: `'${NO_RULE}' is what rows no rule matches read; name the outcome otherwise` });
  if (!(RULE_COLORS as readonly string[]).includes(rule.color))
    issues.push({ path: ['color'], message: `Colour must be one of ${RULE_COLORS.join(', ')}` });
  if (rule.conditions.length === 0) {
    if (!last) issues.push({ path: ['conditions'], message: OTHERWISE_NOT_LAST });
  } else if (rule.conditions.length > CONDITIONS_MAX)
    issues.push({ path: ['conditions'], message: `A rule has at most ${CONDITIONS_MAX} conditions` });
  for (const [j, c] of rule.conditions.entries()) {
    const problem = conditionProblem(c);
    if (problem) issues.push({ path: ['conditions', j, problem.part], message: problem.message });
  }
  return issues;
}

/**
 * The first problem of one condition: its field, then its operator, then its value. Shared with the
 * watches' conditions (watches.ts), which are rule conditions by another name.
 */
export function conditionProblem(
  c: RuleDraft['conditions'][number],
  fields: readonly FieldDef[] = RULE_FIELDS,
): { part: 'field' | 'operator' | 'value'; message: string } | undefined {
  const def = fields.find((f) => f.name === c.field);
  if (!def) return { part: 'field', message: `Unknown field '${c.field}'` };
  const allowed: readonly string[] = operatorsFor(def.type);
  if (!allowed.includes(c.operator))
    return { part: 'operator', message: `Operator '${c.operator}' is not allowed for '${def.label}' (allowed: ${allowed.join(', ')})` };
  if (c.value.trim() === '') return { part: 'value', message: 'Value is required' };
  const problem = filterValueProblem(def, c.value);
  return problem ? { part: 'value', message: problem } : undefined;
}

/** A draft validateRuleSet passed, as stored: names and outcomes without surrounding spaces, only known keys. */
export function normalizeRuleSet(input: RuleSetDraft): RuleSetInput {
  return {
    name: input.name.trim(),
    rules: input.rules.map((r) => ({
      outcome: r.outcome.trim(),
      color: r.color as RuleColor,
      conditions: r.conditions.map(({ field, operator, value }) => ({ field, operator: operator as FilterOperator, value })),
    })),
  };
}
