import { describe, expect, it } from 'vitest';
import { RULE_FIELDS } from './rules.ts';
import { validateWatchConditions, WATCH_FIELDS } from './watches.ts';

describe('watch fields', () => {
  it("are a rule's fields and the decision, which a rule cannot test but a watch can", () => {
    const names = WATCH_FIELDS.map((f) => f.name);
    expect(names.filter((n) => n !== 'decision')).toEqual(RULE_FIELDS.map((f) => f.name));
    expect(names).toContain('decision');
    expect(names).not.toContain('id');
  });

  it('take a decision condition as the text field it is', () => {
    expect(validateWatchConditions([{ field: 'decision', operator: 'equals', value: 'Buy' }])).toEqual([]);
    expect(validateWatchConditions([{ field: 'decision', operator: 'gte', value: 'Buy' }])).toMatchObject([
      { path: ['conditions', 0, 'operator'] },
    ]);
  });
});
