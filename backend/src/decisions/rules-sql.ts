// A rule set version's rules as SQL over the job's comparison: per rule, its conditions (AND) through
// the very function that turns the comparison page's filters into SQL (lib/filter-sql.ts), so a rule
// and a filter with the same conditions always select the same rows.
import { COMPARISON_FIELDS, DECISION_FIELD } from '@app/domain/comparison';
import { NO_RULE, OUTCOME_MAX_LENGTH, RULE_COLORS, type RuleColor } from '@app/domain/rules';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { conditionsSql } from '../lib/filter-sql.ts';

/** What a rule may test: every filterable comparison field but the decision it decides. */
export const RULE_FIELDS = COMPARISON_FIELDS.filter((f) => f.name !== DECISION_FIELD);

/** A stored rule as read back: checked again here, since a version outlives the code that saved it. */
const StoredRule = z.object({
  outcome: z.string().trim().min(1).max(OUTCOME_MAX_LENGTH),
  color: z.string(),
  conditions: z.array(z.object({ field: z.string(), operator: z.string(), value: z.union([z.string(), z.number()]).transform(String) })),
});

export interface CompiledRule {
  outcome: string;
  color: RuleColor;
  /** The rule's conditions as SQL; undefined when the rule can never match (see compileRules). */
  when: SQL | undefined;
  /** How many conditions `when` tests. */
  conditions: number;
}

/** An outcome's colour as stored, or gray when it is not one of RULE_COLORS. */
const colorOf = (c: string): RuleColor => ((RULE_COLORS as readonly string[]).includes(c) ? (c as RuleColor) : 'gray');

/**
 * The version's rules in order. A rule without conditions (the set's "Otherwise" rule, allowed last
 * only) holds for every row. A rule that cannot be read, or names a field the
 * comparison no longer has (a version saved before a field was removed), an operator that does not
 * fit the field or a value of the wrong type never matches: judging an old version must not fail,
 * and the rows fall through to the next rule (or "No rule") exactly as a filter would keep none.
 * Its outcome still counts (with 0 rows) when it could be read.
 */
export function compileRules(rules: unknown): CompiledRule[] {
  if (!Array.isArray(rules)) return [];
  return rules.map((raw) => {
    const rule = StoredRule.safeParse(raw);
    if (!rule.success) return { outcome: NO_RULE, color: 'gray', when: undefined, conditions: 0 };
    const { outcome, color, conditions } = rule.data;
    return { outcome, color: colorOf(color), when: conditionsSql(conditions, RULE_FIELDS), conditions: conditions.length };
  });
}

/** How many conditions the rules that can match test: what judging one row costs (the judge sizes its steps by it). */
export const conditionCount = (rules: CompiledRule[]): number => rules.reduce((n, r) => n + (r.when ? r.conditions : 0), 0);

/**
 * `CASE WHEN <rule 0> THEN 0 WHEN <rule 1> THEN 1 … END`: per comparison row, the first matching
 * rule's position (NULL when none matches); and its outcome from that position ("No rule" for NULL).
 * The conditions are evaluated once, for the position: an outcome CASE of its own evaluated them all again.
 */
export function decisionCases(rules: CompiledRule[]): { ruleIndex: SQL; outcomeOf: (ruleIndex: SQL) => SQL } {
  const matching = rules.flatMap((r, i) => (r.when ? [{ ...r, index: i, when: r.when }] : []));
  if (matching.length === 0) return { ruleIndex: sql`NULL::int`, outcomeOf: () => sql`${NO_RULE}::text` };
  return {
    ruleIndex: sql`CASE ${sql.join(
      matching.map((r) => sql`WHEN ${r.when} THEN ${r.index}::int`),
      sql` `,
    )} END`,
    outcomeOf: (ruleIndex) =>
      sql`CASE ${ruleIndex} ${sql.join(
        matching.map((r) => sql`WHEN ${r.index}::int THEN ${r.outcome}::text`),
        sql` `,
      )} ELSE ${NO_RULE}::text END`,
  };
}
