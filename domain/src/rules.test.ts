import { describe, expect, it } from 'vitest';
import {
  CONDITIONS_MAX,
  NO_RULE,
  RULE_FIELDS,
  RULE_SET_CONDITIONS_MAX,
  RULES_MAX,
  isOtherwise,
  normalizeRuleSet,
  validateRuleSet,
  type RuleSetDraft,
} from './rules.ts';

const buy = { outcome: 'Buy', color: 'green', conditions: [{ field: 'best_price', operator: 'lte', value: '20' }] };
const valid = (): RuleSetDraft => ({ name: 'Scouting', rules: [structuredClone(buy)] });
type Loose = RuleSetDraft;
/** The rule set with one change made to a copy. */
const withChange = (change: (r: Loose) => void): Loose => {
  const r = valid() as Loose;
  change(r);
  return r;
};
const issuesOf = (r: Loose) => validateRuleSet(r).map((i) => ({ path: i.path.join('.'), message: i.message }));

describe('validateRuleSet', () => {
  it('accepts a rule set of text, number and several conditions', () => {
    expect(validateRuleSet(valid())).toEqual([]);
    const r = withChange((r) => {
      r.rules.push({
        outcome: 'List on AbeBooks',
        color: 'blue',
        conditions: [
          { field: 'best_source', operator: 'equals', value: 'abe_books' },
          { field: 'title', operator: 'contains', value: 'atlas' },
          { field: 'spread', operator: 'gte', value: '5.5' },
        ],
      });
    });
    expect(validateRuleSet(r)).toEqual([]);
  });

  it.each<[string, (r: Loose) => void, string, RegExp]>([
    ['an empty name', (r) => (r.name = '  '), 'name', /required/],
    ['a name over 255 characters', (r) => (r.name = 'x'.repeat(256)), 'name', /at most 255/],
    ['no rules', (r) => (r.rules = []), 'rules', /at least one rule/],
    ['too many rules', (r) => (r.rules = Array.from({ length: RULES_MAX + 1 }, () => structuredClone(buy))), 'rules', /at most 50/],
    [
      'more conditions in all than a set may have (issue 29)',
      (r) =>
        (r.rules = Array.from({ length: RULES_MAX }, () => ({
          ...structuredClone(buy),
          conditions: Array.from({ length: Math.floor(RULE_SET_CONDITIONS_MAX / RULES_MAX) + 1 }, () => ({
            field: 'spread',
            operator: 'gt',
            value: '1',
          })),
        }))),
      'rules',
      /at most \d+ conditions in all its rules \(this one has \d+\)/,
    ],
    ['an empty outcome', (r) => (r.rules[0]!.outcome = ' '), 'rules.0.outcome', /required/],
    ['an outcome over 64 characters', (r) => (r.rules[0]!.outcome = 'x'.repeat(65)), 'rules.0.outcome', /at most 64/],
    ['"No rule" as an outcome, in any case', (r) => (r.rules[0]!.outcome = ` ${NO_RULE.toUpperCase()} `), 'rules.0.outcome', /No rule/],
    ['a colour outside the palette', (r) => (r.rules[0]!.color = 'black'), 'rules.0.color', /Colour must be one of/],
    [
      'a rule without conditions before the last',
      (r) => r.rules.unshift({ ...structuredClone(buy), outcome: 'Reject', conditions: [] }),
      'rules.0.conditions',
      /Only the last rule may have no conditions/,
    ],
    [
      'too many conditions',
      (r) => (r.rules[0]!.conditions = Array.from({ length: CONDITIONS_MAX + 1 }, () => ({ field: 'spread', operator: 'gt', value: '1' }))),
      'rules.0.conditions',
      /at most 20/,
    ],
    ['an unknown field', (r) => (r.rules[0]!.conditions[0]!.field = 'nope'), 'rules.0.conditions.0.field', /Unknown field 'nope'/],
    ['the row id', (r) => (r.rules[0]!.conditions[0]!.field = 'id'), 'rules.0.conditions.0.field', /Unknown field 'id'/],
    ['the decision itself', (r) => (r.rules[0]!.conditions[0]!.field = 'decision'), 'rules.0.conditions.0.field', /Unknown field/],
    [
      'a text operator on a number',
      (r) => (r.rules[0]!.conditions[0]!.operator = 'contains'),
      'rules.0.conditions.0.operator',
      /not allowed for 'Best Price'/,
    ],
    [
      'a number operator on text',
      (r) => (r.rules[0]!.conditions[0] = { field: 'title', operator: 'gt', value: 'a' }),
      'rules.0.conditions.0.operator',
      /not allowed/,
    ],
    ['an unknown operator', (r) => (r.rules[0]!.conditions[0]!.operator = 'between'), 'rules.0.conditions.0.operator', /not allowed/],
    ['a word for a number', (r) => (r.rules[0]!.conditions[0]!.value = 'cheap'), 'rules.0.conditions.0.value', /must be a number/],
    ['an infinite number', (r) => (r.rules[0]!.conditions[0]!.value = 'Infinity'), 'rules.0.conditions.0.value', /must be a number/],
    ['an empty value', (r) => (r.rules[0]!.conditions[0]!.value = ' '), 'rules.0.conditions.0.value', /required/],
  ])('refuses %s, naming it', (_name, change, path, message) => {
    const issues = issuesOf(withChange(change));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe(path);
    expect(issues[0]!.message).toMatch(message);
  });

  it('accepts a last rule without conditions (Otherwise), even as the only rule', () => {
    const otherwise = { outcome: 'Reject', color: 'red', conditions: [] };
    expect(validateRuleSet(withChange((r) => r.rules.push(otherwise)))).toEqual([]);
    expect(validateRuleSet({ name: 'All', rules: [otherwise] })).toEqual([]);
    expect(isOtherwise(otherwise)).toBe(true);
    expect(isOtherwise(buy)).toBe(false);
  });

  it('names the rule and condition of each problem, all at once', () => {
    const r = withChange((r) => {
      r.rules.push({
        outcome: 'Reject',
        color: 'red',
        conditions: [
          { field: 'spread', operator: 'gte', value: '5' },
          { field: 'best_price', operator: 'gt', value: 'x' },
        ],
      });
      r.rules[0]!.color = 'plaid';
    });
    expect(issuesOf(r).map((i) => i.path)).toEqual(['rules.0.color', 'rules.1.conditions.1.value']);
  });

  it('offers every filterable comparison field but the row id', () => {
    expect(RULE_FIELDS.map((f) => f.name)).toContain('best_price');
    expect(RULE_FIELDS.map((f) => f.name)).not.toContain('id');
    expect(RULE_FIELDS.every((f) => f.filterable)).toBe(true);
  });
});

describe('normalizeRuleSet', () => {
  it('trims the name and outcomes and keeps only the known keys', () => {
    const r = valid();
    r.name = ' Scouting ';
    r.rules[0]!.outcome = ' Buy ';
    Object.assign(r.rules[0]!.conditions[0]!, { extra: 1 });
    expect(normalizeRuleSet(r)).toEqual({ name: 'Scouting', rules: [buy] });
  });
});
