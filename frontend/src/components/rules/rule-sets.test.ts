import { RULE_FIELDS } from '@app/domain/rules';
import { describe, expect, it } from 'vitest';
import { draftErrors, emptyRuleSet, moved, newRule, ruleWhen, withOtherwise } from './rule-sets';

describe('the Otherwise rule', () => {
  it('is added once, last, without conditions and in a colour of its own', () => {
    const rules = emptyRuleSet().rules;
    const withIt = withOtherwise(rules);
    expect(withIt).toHaveLength(2);
    expect(withIt[1]!.conditions).toEqual([]);
    expect(withIt[1]!.color).not.toBe(withIt[0]!.color);
    expect(withOtherwise(withIt)).toEqual(withIt);
  });

  it('reads as "Otherwise"; other rules read as their conditions', () => {
    expect(ruleWhen({ conditions: [] })).toBe('Otherwise');
    expect(
      ruleWhen({
        conditions: [
          { field: 'best_price', operator: 'lte', value: '5' },
          { field: 'title', operator: 'contains', value: 'atlas' },
        ],
      }),
    ).toBe('Best Price less or equal 5 and Title contains atlas');
  });
});

describe('rule editor drafts', () => {
  it('starts with one rule on the first rule field, each new rule in an unused colour', () => {
    const draft = emptyRuleSet();
    expect(draft.rules).toHaveLength(1);
    expect(draft.rules[0]?.conditions[0]?.field).toBe(RULE_FIELDS[0]?.name);
    expect(newRule(draft.rules).color).not.toBe(draft.rules[0]?.color);
  });

  it('keys the domain’s problems by input path', () => {
    const draft = emptyRuleSet();
    draft.rules[0]!.conditions[0] = { field: 'best_price', operator: 'lte', value: 'x' };
    expect(draftErrors(draft)).toEqual({
      name: 'Name is required',
      'rules.0.outcome': 'Outcome is required',
      'rules.0.conditions.0.value': "Value for 'best_price' must be a number",
    });
  });

  it('moves an item up or down, not past the ends', () => {
    expect(moved(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moved(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });
});
