import { describe, expect, it } from 'vitest';
import { nextRunOnSet, scheduleChangeAction } from './schedule.ts';

const at = (iso: string) => new Date(iso);
const now = at('2026-11-27T12:00:00Z');

describe('nextRunOnSet', () => {
  it('runs a new schedule its interval from now', () => {
    expect(nextRunOnSet(null, 7, now)).toEqual(at('2026-12-04T12:00:00Z'));
    expect(nextRunOnSet(null, 1, now)).toEqual(at('2026-11-28T12:00:00Z'));
  });

  it('keeps the next run when the interval stays (pause, resume, the same PUT again)', () => {
    const before = { every_days: 7, paused: false, next_run_at: at('2026-12-01T03:00:00Z') };
    expect(nextRunOnSet(before, 7, now)).toEqual(before.next_run_at);
    // A next run that passed while paused stays in the past: the worker runs it at its next look.
    const overdue = { every_days: 7, paused: true, next_run_at: at('2026-11-20T03:00:00Z') };
    expect(nextRunOnSet(overdue, 7, now)).toEqual(overdue.next_run_at);
  });

  it('counts a new interval from the last run, never earlier than now', () => {
    // Last run 2026-11-25 03:00 (next 12-02 less 7 days): every 3 days → 11-28 03:00.
    const weekly = { every_days: 7, paused: false, next_run_at: at('2026-12-02T03:00:00Z') };
    expect(nextRunOnSet(weekly, 3, now)).toEqual(at('2026-11-28T03:00:00Z'));
    // Every day: 11-26 03:00 has passed, so now.
    expect(nextRunOnSet(weekly, 1, now)).toEqual(now);
    // Longer: 11-25 + 30 days.
    expect(nextRunOnSet(weekly, 30, now)).toEqual(at('2026-12-25T03:00:00Z'));
  });
});

describe('scheduleChangeAction', () => {
  it('names what a PUT changed', () => {
    expect(scheduleChangeAction(null, { every_days: 7, paused: false })).toBe('job.schedule_set');
    expect(scheduleChangeAction(null, { every_days: 7, paused: true })).toBe('job.schedule_set');
    expect(scheduleChangeAction({ every_days: 7, paused: false }, { every_days: 3, paused: false })).toBe('job.schedule_set');
    expect(scheduleChangeAction({ every_days: 7, paused: false }, { every_days: 3, paused: true })).toBe('job.schedule_set');
    expect(scheduleChangeAction({ every_days: 7, paused: false }, { every_days: 7, paused: true })).toBe('job.schedule_paused');
    expect(scheduleChangeAction({ every_days: 7, paused: true }, { every_days: 7, paused: false })).toBe('job.schedule_resumed');
    expect(scheduleChangeAction({ every_days: 7, paused: true }, { every_days: 7, paused: true })).toBeNull();
  });
});
