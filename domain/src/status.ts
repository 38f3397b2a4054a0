// Lookup statuses and how the UI colours them (specification §4).
export const LOOKUP_STATUSES = ['queued', 'pending', 'completed', 'no_offers_available', 'failed'] as const;
export type LookupStatus = (typeof LOOKUP_STATUSES)[number];
/** Statuses after which a lookup is never touched again. */
export const FINISHED_STATUSES: readonly LookupStatus[] = ['completed', 'no_offers_available', 'failed'];

export function statusBadge(status: string | null | undefined): { label: string; color: 'green' | 'red' | 'gray' | 'blue' } {
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
    default:
      return { label: 'Unavailable', color: 'gray' };
  }
}

/** Progress colour per specification §4: green at 100, blue ≥75, yellow ≥50, orange ≥25, else red. */
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
