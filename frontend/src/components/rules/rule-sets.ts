// The rule editor's draft and its errors: the domain's validation and a 422's `loc`s both become
// messages keyed by the path of the input they name ("rules.0.conditions.1.value"), so each shows
// beside its input.
import { OPERATOR_LABELS, type Filter } from '@app/domain/fields';
import {
  isOtherwise,
  OTHERWISE,
  RULE_COLORS,
  RULE_FIELDS,
  validateRuleSet,
  type Rule,
  type RuleSetDraft,
  type RuleSetInput,
} from '@app/domain/rules';
import { newFilter } from '../../lib/filters';

export type { Rule, RuleSetInput };

/** Messages by input path; the first message per path wins. */
export type ErrorMap = Record<string, string>;

export const pathKey = (path: readonly (string | number)[]) => path.join('.');

/** A new rule: no outcome yet, the first colour not used by another rule, one condition to fill in. */
export function newRule(rules: readonly Rule[] = []): Rule {
  const used = new Set(rules.map((r) => r.color));
  return { outcome: '', color: RULE_COLORS.find((c) => !used.has(c)) ?? RULE_COLORS[0], conditions: [newFilter(RULE_FIELDS)] };
}

export const emptyRuleSet = (): RuleSetInput => ({ name: '', rules: [newRule()] });

/** The rules with an Otherwise rule (no conditions) added at the end, in an unused colour; unchanged when the last rule already is one. */
export function withOtherwise(rules: readonly Rule[]): Rule[] {
  const last = rules[rules.length - 1];
  if (last && isOtherwise(last)) return [...rules];
  return [...rules, { ...newRule(rules), conditions: [] }];
}

/** A condition as a reader says it: "Best Price less or equal 5". */
export function conditionText(c: Filter): string {
  const label = RULE_FIELDS.find((f) => f.name === c.field)?.label ?? c.field;
  return `${label} ${OPERATOR_LABELS[c.operator] ?? c.operator} ${c.value}`;
}

/** When a rule holds, as read: its conditions joined by "and", or "Otherwise" for a rule without any. */
export function ruleWhen(rule: Pick<Rule, 'conditions'>): string {
  return isOtherwise(rule) ? OTHERWISE : rule.conditions.map(conditionText).join(' and ');
}

/** The domain's verdict on a draft, by path. */
export function draftErrors(draft: RuleSetDraft): ErrorMap {
  const errors: ErrorMap = {};
  for (const issue of validateRuleSet(draft)) errors[pathKey(issue.path)] ??= issue.message;
  return errors;
}

/** The list with item `i` moved by `by` places (unchanged at the ends). */
export function moved<T>(list: readonly T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (j < 0 || j >= list.length) return [...list];
  const next = [...list];
  [next[i], next[j]] = [next[j] as T, next[i] as T];
  return next;
}
