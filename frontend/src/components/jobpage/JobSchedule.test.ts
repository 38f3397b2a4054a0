import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { parseEveryDays, scheduleText, setByText } from './JobSchedule';

const next = '2026-12-04T03:00:00Z';

describe('the schedule box', () => {
  it('says the schedule and its next run, or that it is paused, or that there is none', () => {
    expect(scheduleText({ every_days: 7, paused: false, next_run_at: next })).toBe(
      `Re-priced every 7 days. Next run: ${formatDateTime(next)}.`,
    );
    expect(scheduleText({ every_days: 1, paused: false, next_run_at: next })).toBe(
      `Re-priced every day. Next run: ${formatDateTime(next)}.`,
    );
    expect(scheduleText({ every_days: 3, paused: true, next_run_at: next })).toBe('Paused (every 3 days). It does not run until resumed.');
    expect(scheduleText(null)).toMatch(/^Not scheduled/);
  });

  it('says who set it from the viewer’s side', () => {
    const job = { owner_id: 'owner' };
    expect(setByText({ set_by: 'owner' }, job, 'owner')).toBe('Set by you.');
    expect(setByText({ set_by: 'owner' }, job, 'admin')).toBe('Set by the job’s owner.');
    expect(setByText({ set_by: 'admin' }, job, 'owner')).toBe('Set by an administrator.');
    expect(setByText({ set_by: null }, job, 'owner')).toBeNull();
  });

  it('takes a whole number of days from 1 to 365', () => {
    expect(parseEveryDays(7)).toBe(7);
    expect(parseEveryDays('30')).toBe(30);
    expect(parseEveryDays(365)).toBe(365);
    for (const bad of ['', 0, 366, 1.5, 'abc', -2]) expect(parseEveryDays(bad)).toMatch(/^Enter a whole number of days from 1 to 365/);
  });
});
