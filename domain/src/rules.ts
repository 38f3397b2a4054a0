// Buy rules: a rule set is an ordered list of rules over the job comparison's fields; the first rule
// whose conditions all hold gives the row its outcome ("Buy", "List on AbeBooks", "Reject"), and a
// row no rule matches reads NO_RULE. Shared by the API (validation, judging in SQL) and the editor.
import type { Filter } from './fields.ts';

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
