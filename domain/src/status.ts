// Lookup statuses and how the UI colours them (docs/requirements.md, Marketplace pages and Jobs).
export const LOOKUP_STATUSES = ['queued', 'pending', 'completed', 'no_offers_available', 'failed', 'cancelled'] as const;
export type LookupStatus = (typeof LOOKUP_STATUSES)[number];
/** Statuses after which the worker never touches a lookup again (only retry or re-price queue it anew). */
export const FINISHED_STATUSES: readonly LookupStatus[] = ['completed', 'no_offers_available', 'failed', 'cancelled'];

export function statusBadge(status: string | null | undefined): { label: string; color: 'green' | 'red' | 'gray' | 'blue' | 'orange' } {
  switch (status) {
    case 'completed':
    case 'no_offers_available':
      return { label: status, color: 'green' };
    case 'failed':
      return { label: status, color: 'red' };
    case 'queued':
      return { label: status, color: 'gray' };
    case 'pending':
      return { label: status, color: 'blue' };
    // Not in the spec (its statuses predate job control): stopped by a cancel, neither grey like
    // queued (it will not run) nor red like failed (nothing went wrong).
    case 'cancelled':
      return { label: status, color: 'orange' };
    default:
      return { label: 'Unavailable', color: 'gray' };
  }
}

/** Progress colour: green at 100, blue ≥75, yellow ≥50, orange ≥25, else red. */
export function progressPercent(processed: number, total: number): number {
  return total > 0 ? Math.round((processed / total) * 100) : 100;
}

export function progressColor(percent: number): 'green' | 'blue' | 'yellow' | 'orange' | 'red' {
  if (percent >= 100) return 'green';
  if (percent >= 75) return 'blue';
  if (percent >= 50) return 'yellow';
  if (percent >= 25) return 'orange';
  return 'red';
}
