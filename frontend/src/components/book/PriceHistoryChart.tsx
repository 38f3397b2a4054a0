// A book's price over time, one line per selling marketplace, and Amazon's sales rank beside it on its
// own axis (log scale, best rank on top), from our looks and Keepa's points, which reach back before
// our first look (docs/features/history.md). Loaded only when a book page has history to draw
// (React.lazy), so the charting library stays out of the initial bundle.
import '@mantine/charts/styles.layer.css';
import { PRICE_SOURCES } from '@app/domain/comparison';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { LineChart } from '@mantine/charts';
import { Paper, Text } from '@mantine/core';
import type { BookHistory } from '../../client/types.gen';
import { formatDateTime } from '../../lib/format';
import { SERIES_COLOR } from '../../lib/series-colors';

/** The rank line's and Keepa's price line's keys beside the marketplaces'. */
export const RANK = 'sales_rank';
export const KEEPA = 'keepa';

type Row = { at: string; time: number } & Partial<Record<MarketplaceId | typeof RANK | typeof KEEPA, number>>;

/**
 * One row per observation (its marketplace's price set, the others empty), in time order. Amazon's
 * answers and Keepa's points also set the sales rank; Keepa's set its price (lowest used, else new).
 */
export function historyRows(history: BookHistory): Row[] {
  const rows: Row[] = [];
  const add = (key: MarketplaceId | typeof KEEPA, points: BookHistory['keepa']['points']) => {
    for (const p of points) {
      const rank = p.sales_rank !== null && p.sales_rank > 0 ? p.sales_rank : undefined;
      if (p.price === null && rank === undefined) continue;
      const row: Row = { at: formatDateTime(p.observed_at), time: new Date(p.observed_at).getTime() };
      if (p.price !== null) row[key] = p.price;
      if (rank !== undefined) row[RANK] = rank;
      rows.push(row);
    }
  };
  for (const s of history.series) {
    if (PRICE_SOURCES.some((p) => p.marketplace === s.marketplace)) add(s.marketplace, s.points);
  }
  add(KEEPA, history.keepa.points);
  return rows.sort((a, b) => a.time - b.time);
}

const LABELS: Record<string, string> = { [RANK]: 'Sales rank', [KEEPA]: 'Amazon (Keepa)' };
const labelOf = (key: string) => LABELS[key] ?? MARKETPLACES[key as MarketplaceId]?.label ?? key;
const formatRank = (v: number) => `#${Math.round(v).toLocaleString('en-US')}`;

type TooltipItem = { dataKey?: string | number; value?: number; color?: string };

/** The tooltip: prices with cents, the rank as "#41,220". */
function HistoryTooltip({ label, payload }: { label?: string; payload?: readonly TooltipItem[] }) {
  if (!payload?.length) return null;
  return (
    <Paper withBorder shadow="sm" p="xs">
      <Text size="xs" fw={500}>
        {label}
      </Text>
      {payload.map((item) => {
        const key = String(item.dataKey);
        if (typeof item.value !== 'number') return null;
        return (
          <Text key={key} size="xs">
            {labelOf(key)}: {key === RANK ? formatRank(item.value) : item.value.toFixed(2)}
          </Text>
        );
      })}
    </Paper>
  );
}

export function PriceHistoryChart({ history }: { history: BookHistory }) {
  const rows = historyRows(history);
  const keys: (MarketplaceId | typeof KEEPA)[] = [...PRICE_SOURCES.map((s) => s.marketplace), KEEPA];
  const priced = keys.filter((id) => rows.some((r) => r[id] !== undefined));
  const ranked = rows.some((r) => r[RANK] !== undefined);
  return (
    <LineChart
      h={260}
      data={rows}
      dataKey="at"
      series={[
        ...priced.map((id) => ({ name: id, label: labelOf(id), color: id === KEEPA ? 'yellow.8' : SERIES_COLOR[id as MarketplaceId] })),
        ...(ranked ? [{ name: RANK, label: labelOf(RANK), color: 'dark.3', yAxisId: 'right' }] : []),
      ]}
      connectNulls
      withLegend
      curveType="linear"
      yAxisLabel="Best price"
      valueFormatter={(v) => v.toFixed(2)}
      withRightYAxis={ranked}
      rightYAxisLabel="Sales rank"
      // Log scale (ranks run from 1 to millions), reversed so the best rank is on top.
      rightYAxisProps={{
        scale: 'log',
        domain: ['auto', 'auto'],
        reversed: true,
        allowDataOverflow: true,
        tickFormatter: formatRank,
        width: 70,
      }}
      tooltipProps={{
        content: ({ label, payload }) => <HistoryTooltip label={label as string} payload={payload as unknown as readonly TooltipItem[]} />,
      }}
    />
  );
}
