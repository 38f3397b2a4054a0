// A lookup filled from a recent answer for the same ISBN (no new request): the hint beside its
// status says so and how old the answer is, with the exact time of the answer on hover.
import { formatDateTime, parseServerDate } from '../../lib/format';

export interface ReuseInfo {
  [key: string]: unknown;
  reused?: unknown;
  answered_at?: unknown;
}

/** "just now", "12 min ago", "3 h ago", "2 d ago". */
export function ageText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** "reused · 3 h ago" and "Answer of <time>, reused instead of a new request", or null when the lookup was asked anew. */
export function reuseHint(row: ReuseInfo, now = Date.now()): { text: string; title: string } | null {
  if (row.reused !== true) return null;
  const at = typeof row.answered_at === 'string' ? parseServerDate(row.answered_at) : null;
  if (!at || Number.isNaN(at.getTime())) return { text: 'reused', title: 'Filled from an earlier answer instead of a new request' };
  return {
    text: `reused · ${ageText(now - at.getTime())}`,
    title: `Answered ${formatDateTime(at.toISOString())}; reused instead of a new request`,
  };
}
