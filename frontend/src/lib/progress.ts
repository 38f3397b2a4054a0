// What a jobs-table source cell shows (docs/requirements.md, Jobs): percent, its colour and 'N left', or N/A.
import { progressColor, progressPercent } from '@app/domain/status';
import { MARKETPLACE_IDS, type MarketplaceId } from '@app/domain/marketplaces';
import type { SourceProgress } from '../client/types.gen';

export interface SourceCell {
  percent: number;
  color: ReturnType<typeof progressColor>;
  left: number;
  label: string;
}

/** null when the source is not enabled for the job (the cell shows N/A). */
export function sourceCell(p: SourceProgress): SourceCell | null {
  if (!p.enabled) return null;
  const percent = progressPercent(p.processed_isbns, p.total_isbns);
  const left = Math.max(0, p.total_isbns - p.processed_isbns);
  return { percent, color: progressColor(percent), left, label: `${left} left` };
}

/** True while an enabled source still has lookups to do: the jobs table keeps polling. */
export function hasUnfinishedLookups(jobs: readonly Record<MarketplaceId, SourceProgress>[] | undefined): boolean {
  return !!jobs?.some((j) => MARKETPLACE_IDS.some((id) => j[id].enabled && j[id].processed_isbns < j[id].total_isbns));
}

/**
 * About how long a marketplace's run has left: what is left at the pace it has kept so far (lookups
 * finished per minute over the run, which is its rate as the marketplace and the queue allow it),
 * rounded up to a minute, hours past 90 minutes. Null when nothing is left or no pace is known yet.
 */
export function timeLeft(run: {
  total: number;
  processed: number;
  throughput_per_minute: number | null;
  finished_at: string | null;
}): string | null {
  const left = run.total - run.processed;
  if (left <= 0 || run.finished_at !== null || !run.throughput_per_minute || run.throughput_per_minute <= 0) return null;
  const minutes = Math.max(1, Math.ceil(left / run.throughput_per_minute));
  if (minutes <= 90) return `about ${minutes} min`;
  const hours = Math.round((minutes / 60) * 10) / 10;
  return `about ${hours} h`;
}
