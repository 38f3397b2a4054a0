// A book's price over time, one line per selling marketplace. Loaded only when a book page has
// history to draw (React.lazy), so the charting library stays out of the initial bundle.
import '@mantine/charts/styles.layer.css';
import { PRICE_SOURCES } from '@app/domain/comparison';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { LineChart } from '@mantine/charts';
import type { BookHistory } from '../../client/types.gen';
import { formatDateTime } from '../../lib/format';
import { SERIES_COLOR } from '../../lib/series-colors';

type Row = { at: string; time: number } & Partial<Record<MarketplaceId, number>>;

/** One row per observation (its marketplace's price set, the others empty), in time order. */
export function historyRows(history: BookHistory): Row[] {
  const rows: Row[] = [];
  for (const s of history.series) {
    if (!PRICE_SOURCES.some((p) => p.marketplace === s.marketplace)) continue;
    for (const p of s.points) {
      if (p.price === null) continue;
      const time = new Date(p.observed_at).getTime();
      rows.push({ at: formatDateTime(p.observed_at), time, [s.marketplace]: p.price });
    }
  }
  return rows.sort((a, b) => a.time - b.time);
}

export function PriceHistoryChart({ history }: { history: BookHistory }) {
  const rows = historyRows(history);
  const shown = PRICE_SOURCES.map((s) => s.marketplace).filter((id) => rows.some((r) => r[id] !== undefined));
  return (
    <LineChart
      h={260}
      data={rows}
      dataKey="at"
      series={shown.map((id) => ({ name: id, label: MARKETPLACES[id].label, color: SERIES_COLOR[id] }))}
      connectNulls
      withLegend
      curveType="linear"
      yAxisLabel="Best price"
      valueFormatter={(v) => v.toFixed(2)}
    />
  );
}
