// A queued lookup that failed before waits for its next try: the hint beside its status says when
// (a marketplace may have asked us to wait), with the error it met on hover.
import { parseServerDate } from '../../lib/format';

export interface RetryInfo {
  [key: string]: unknown;
  retry_at?: unknown;
  retry_reason?: unknown;
}

/** "retry at 14:05:00" (or "retrying now" once due), or null when the row is not waiting for a retry. */
export function retryHint(row: RetryInfo, now = Date.now()): { text: string; reason: string } | null {
  if (typeof row.retry_at !== 'string' || row.retry_at === '') return null;
  const at = parseServerDate(row.retry_at);
  if (Number.isNaN(at.getTime())) return null;
  const text = at.getTime() <= now ? 'retrying now' : `retry at ${at.toLocaleTimeString()}`;
  return { text, reason: typeof row.retry_reason === 'string' ? row.retry_reason : '' };
}
