// How the status page reads its figures: waits as a person says them ("3 min 5 s"), a queue
// counted up to its bound as "100,000+", the rate-limit waits as a count and their average.
import type { MarketplaceStatus } from '../../client/types.gen';

/** Seconds as "0 s", "45 s", "3 min 5 s", "2 h 4 min", "3 d 1 h". */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

export function queuedText(m: Pick<MarketplaceStatus, 'queued' | 'queued_capped'>): string {
  return `${m.queued.toLocaleString('en-US')}${m.queued_capped ? '+' : ''}`;
}

/** "none yet", or "12 waits, 0.3 s on average". */
export function waitsText({ count, seconds }: MarketplaceStatus['rate_limit_waits']): string {
  if (count === 0) return 'none yet';
  const average = seconds / count;
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'wait' : 'waits'}, ${average < 10 ? average.toFixed(1) : Math.round(average)} s on average`;
}

/** "4,880 of 5,000 calls left today", or that the day is spent and when it resumes. */
export function budgetText(b: NonNullable<MarketplaceStatus['daily_budget']>, resumesAt: (iso: string) => string): string {
  const left = `${b.left.toLocaleString('en-US')} of ${b.budget.toLocaleString('en-US')} calls left today`;
  return b.resumes_at ? `${left}; spent, resumes ${resumesAt(b.resumes_at)}` : left;
}
