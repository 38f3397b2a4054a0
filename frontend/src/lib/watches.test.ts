import { WATCH_CONDITIONS_MAX } from '@app/domain/watches';
import { describe, expect, it } from 'vitest';
import {
  bellLabel,
  emptyWatchDraft,
  unreadBadge,
  watchBody,
  watchConditionsText,
  watchDraftErrors,
  watchStateText,
  watchToDraft,
} from './watches';

const condition = (field: string, operator: 'gte' | 'lte' | 'equals', value: string) => ({ field, operator, value });

describe('a watch in words', () => {
  it('says its conditions as the rule builder names fields and operators, joined by "and"', () => {
    expect(
      watchConditionsText({ conditions: [condition('best_price', 'gte', '20'), condition('amazon_sales_rank', 'lte', '300000')] }),
    ).toBe('Best Price greater or equal 20 and Amazon Sales Rank less or equal 300000');
  });

  it('may name the decision, which a rule cannot test', () => {
    expect(watchConditionsText({ conditions: [{ field: 'decision', operator: 'equals', value: 'Buy' }] })).toBe('Decision equals Buy');
    expect(watchDraftErrors({ name: '', conditions: [{ field: 'decision', operator: 'equals', value: 'Buy' }], email: true })).toEqual({});
  });

  it('says whether it fires on the next answer, or waits for its conditions to stop holding', () => {
    expect(watchStateText({ armed: true, last_fired_at: null })).toBe('Never fired. Fires on the next answer that meets it.');
    const fired = watchStateText({ armed: false, last_fired_at: '2026-11-27T10:00:00Z' });
    expect(fired).toMatch(/^Last fired .*2026.*\. Fires again once the conditions have stopped holding\.$/);
  });
});

describe('the watch form', () => {
  it('starts with one condition to fill in, emailed; an empty value is refused where it is typed', () => {
    const draft = emptyWatchDraft();
    expect(draft.conditions).toHaveLength(1);
    expect(draft.email).toBe(true);
    expect(Object.keys(watchDraftErrors(draft))).toEqual(['conditions.0.value']);
  });

  it('names each problem by the path of its input: no condition, a wrong operator, a value that is no number, too many', () => {
    expect(watchDraftErrors({ name: '', conditions: [], email: true })).toEqual({ conditions: 'Add at least one condition' });
    const errors = watchDraftErrors({
      name: 'x'.repeat(300),
      conditions: [condition('best_price', 'gte', 'twenty'), { field: 'title', operator: 'gte' as never, value: 'a' }],
      email: false,
    });
    expect(Object.keys(errors).sort()).toEqual(['conditions.0.value', 'conditions.1.operator', 'name']);
    const many = Array.from({ length: WATCH_CONDITIONS_MAX + 1 }, () => condition('best_price', 'gte', '1'));
    expect(Object.keys(watchDraftErrors({ name: '', conditions: many, email: true }))).toEqual(['conditions']);
  });

  it('sends a blank name as none, and edits a copy of the saved conditions', () => {
    expect(watchBody({ name: '  ', conditions: [condition('best_price', 'gte', '20')], email: false })).toEqual({
      name: null,
      conditions: [condition('best_price', 'gte', '20')],
      email: false,
    });
    expect(watchBody({ name: ' Worth it ', conditions: [], email: true }).name).toBe('Worth it');
    const saved = {
      id: 1,
      isbn: '9780131103627',
      job_id: null,
      name: null,
      conditions: [condition('best_price', 'gte', '20')],
      email: true,
      armed: true,
      last_fired_at: null,
      created_at: '2026-11-27T10:00:00Z',
    };
    const draft = watchToDraft(saved);
    expect(draft).toEqual({ name: '', conditions: saved.conditions, email: true });
    expect(draft.conditions[0]).not.toBe(saved.conditions[0]);
  });
});

describe('the bell', () => {
  it('shows no badge at 0, the count up to 99, then 99+; its name says the count', () => {
    expect(unreadBadge(0)).toBe('');
    expect(unreadBadge(7)).toBe('7');
    expect(unreadBadge(99)).toBe('99');
    expect(unreadBadge(100)).toBe('99+');
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(3)).toBe('Notifications: 3 unread');
  });
});
