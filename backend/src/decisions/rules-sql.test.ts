// Stored rules as SQL: a rule that cannot be read or no longer fits the comparison never matches
// (judging an old version goes on); a rule without conditions (Otherwise) always does; the rules
// become one CASE in rule order.
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compileRules, conditionCount, decisionCases } from './rules-sql.ts';

const dialect = new PgDialect();
const text = (s: Parameters<typeof dialect.sqlToQuery>[0]) => dialect.sqlToQuery(s);
const cond = (field: string, operator: string, value: string | number) => ({ field, operator, value });

describe('compileRules', () => {
  it('reads nothing from what is not a list of rules', () => {
    expect(compileRules(null)).toEqual([]);
    expect(compileRules({ outcome: 'Buy' })).toEqual([]);
  });

  it('keeps the rules in order; those that cannot match have no SQL', () => {
    const rules = compileRules([
      { outcome: 'Buy', color: 'green', conditions: [cond('best_price', 'lt', 10)] },
      { outcome: 'Gone', color: 'red', conditions: [cond('removed_field', 'equals', 'x')] },
      { outcome: 'Odd', color: 'blue', conditions: [cond('best_price', 'contains', '1')] },
      { outcome: 'Typo', color: 'blue', conditions: [cond('best_price', 'gt', 'ten')] },
      { outcome: 'Empty', color: 'blue', conditions: [] },
      { outcome: 'Self', color: 'blue', conditions: [cond('decision', 'equals', 'Buy')] },
      { outcome: 'Ochre', color: 'ochre', conditions: [cond('title', 'contains', 'x')] },
      { colour: 'green' },
    ]);
    expect(rules.map((r) => [r.outcome, r.color, r.when !== undefined])).toEqual([
      ['Buy', 'green', true],
      ['Gone', 'red', false],
      ['Odd', 'blue', false],
      ['Typo', 'blue', false],
      // No conditions: the Otherwise rule, which holds for every row.
      ['Empty', 'blue', true],
      // A rule cannot test the decision it decides.
      ['Self', 'blue', false],
      // An unknown colour reads gray.
      ['Ochre', 'gray', true],
      ['No rule', 'gray', false],
    ]);
  });
});

describe('decisionCases', () => {
  it('picks the first matching rule: its position, and its outcome from the position (No rule otherwise)', () => {
    const { ruleIndex, outcomeOf } = decisionCases(
      compileRules([
        { outcome: 'Gone', color: 'red', conditions: [cond('removed_field', 'equals', 'x')] },
        { outcome: 'Buy', color: 'green', conditions: [cond('best_price', 'lt', 10), cond('title', 'contains', 'a')] },
        { outcome: 'List', color: 'blue', conditions: [cond('spread', 'gte', '5')] },
      ]),
    );
    expect(text(ruleIndex).sql).toBe('CASE WHEN "best_price" < $1 AND "title" ILIKE $2 THEN $3::int WHEN "spread" >= $4 THEN $5::int END');
    expect(text(ruleIndex).params).toEqual([10, '%a%', 1, 5, 2]);
    // The conditions are not in the outcome: evaluated once per row, for the position.
    const outcome = outcomeOf(sql`ri`);
    expect(text(outcome).sql).toBe('CASE ri WHEN $1::int THEN $2::text WHEN $3::int THEN $4::text ELSE $5::text END');
    expect(text(outcome).params).toEqual([1, 'Buy', 2, 'List', 'No rule']);
  });

  it('gives the Otherwise rule (no conditions) every row the rules before it leave', () => {
    const { ruleIndex } = decisionCases(
      compileRules([
        { outcome: 'Buy', color: 'green', conditions: [cond('best_price', 'lt', 10)] },
        { outcome: 'Reject', color: 'red', conditions: [] },
      ]),
    );
    expect(text(ruleIndex).sql).toBe('CASE WHEN "best_price" < $1 THEN $2::int WHEN TRUE THEN $3::int END');
  });

  it('decides No rule everywhere when no rule can match', () => {
    const { ruleIndex, outcomeOf } = decisionCases(
      compileRules([{ outcome: 'Gone', color: 'blue', conditions: [cond('nope', 'equals', 'x')] }]),
    );
    expect(text(ruleIndex).sql).toBe('NULL::int');
    expect(text(outcomeOf(sql`ri`))).toEqual({ sql: '$1::text', params: ['No rule'], typings: expect.anything() });
  });
});

describe('conditionCount', () => {
  it('counts the conditions of the rules that can match', () => {
    const rules = compileRules([
      { outcome: 'Buy', color: 'green', conditions: [cond('best_price', 'lt', 10), cond('title', 'contains', 'a')] },
      { outcome: 'Gone', color: 'red', conditions: [cond('removed_field', 'equals', 'x'), cond('title', 'contains', 'a')] },
      { outcome: 'List', color: 'blue', conditions: [cond('spread', 'gte', '5')] },
    ]);
    expect(conditionCount(rules)).toBe(3);
  });
});
