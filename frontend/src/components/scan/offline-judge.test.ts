import type { FiguresPack, VerdictPack } from '@app/domain/offline-pack';
import { describe, expect, it } from 'vitest';
import { judgeOffline, packAge, packSize } from './offline-judge';

const rules = (outcome: string, field: string, value: string) => [
  { outcome, color: 'green', conditions: [{ field, operator: 'gte', value }] },
  { outcome: 'Reject', color: 'red', conditions: [{ field: 'isbn', operator: 'contains', value: '9' }] },
];

const pack: FiguresPack = {
  kind: 'figures',
  format: 2,
  version: '1',
  delta: false,
  days: 30,
  built_at: '',
  isbns: ['9780131457577'],
  numbers: { abe_books_price: [1250] },
  texts: { abe_books_currency: { values: ['USD'], codes: [1] }, abe_books_status: { values: ['completed'], codes: [1] } },
  rule_sets: [
    { id: 1, name: 'Team', is_team_default: true, version: 1, version_id: 1, rules: rules('Buy', 'best_price', '10') },
    { id: 2, name: 'Mine', is_team_default: false, version: 3, version_id: 7, rules: rules('Keep', 'estimated_profit', '20') },
  ],
  fees: { abe_books: { percent: 8, min_commission: 0.5, max_commission: 40, fixed: 0, shipping_credit: 0 } },
};

describe('judging a scan offline', () => {
  it("judges with the session's rule set, else the team default, and an unknown ISBN as still to ask", () => {
    expect(judgeOffline(pack, '9780131457577', { ruleSetId: null, costPerBook: null })).toEqual({
      isbn: '9780131457577',
      outcome: { name: 'Buy', color: 'green' },
      known: true,
      rule_set: 'Team',
    });
    // 12.50 less 8 % = 11.50 profit: not 20, so Mine falls through to Reject.
    expect(judgeOffline(pack, '9780131457577', { ruleSetId: 2, costPerBook: null }).outcome?.name).toBe('Reject');
    expect(judgeOffline(pack, '9780131457577', { ruleSetId: 99, costPerBook: null }).rule_set).toBe('Team');
    expect(judgeOffline(pack, '9780306406157', { ruleSetId: 1, costPerBook: null })).toMatchObject({
      known: false,
      outcome: { name: 'Reject' },
    });
    expect(judgeOffline({ ...pack, rule_sets: [] }, '9780131457577', { costPerBook: null }).outcome).toBeNull();
  });

  it("reads a decisions-only pack's outcome, and none for an ISBN it cannot judge", () => {
    const v: VerdictPack = {
      kind: 'verdicts',
      format: 2,
      version: '1:1.0',
      delta: false,
      days: 30,
      built_at: '',
      isbns: ['9780131457577'],
      rule_set: { id: 1, name: 'Team', version: 1 },
      outcomes: [{ name: 'Buy', color: 'green' }],
      codes: [0],
      unknown: null,
    };
    expect(judgeOffline(v, '9780131457577', { costPerBook: null }).outcome).toEqual({ name: 'Buy', color: 'green' });
    expect(judgeOffline(v, '9780306406157', { costPerBook: null })).toMatchObject({ outcome: null, known: false });
  });

  it('says the age and size of a pack', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(packAge('2026-11-27T11:55:00Z', now)).toBe('5 min');
    expect(packAge('2026-11-27T09:00:00Z', now)).toBe('3 h');
    expect(packAge('2026-11-24T12:00:00Z', now)).toBe('3 days');
    expect(packSize(840_200)).toBe('840 kB');
    expect(packSize(12_345_678)).toBe('12.3 MB');
  });
});
