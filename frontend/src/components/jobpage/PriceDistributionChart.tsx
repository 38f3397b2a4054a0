// The bar chart of the job's price distribution. Loaded only once there are prices to draw
// (React.lazy in PriceChart), so the charting library (recharts) stays out of the job page's chunk.
import '@mantine/charts/styles.layer.css';
import type { PriceSource } from '@app/domain/comparison';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { BarChart } from '@mantine/charts';
import type { PriceDistribution } from '../../client/types.gen';
import { formatMoney } from '../../lib/format';
import { SERIES_COLOR } from '../../lib/series-colors';

/** One bar group per bucket, labelled by its price range; the last reads "$X+". */
function chartData(d: PriceDistribution) {
  return d.buckets.map((b) => ({
    range: b.to === null ? `${formatMoney(b.from, d.currency)}+` : `${formatMoney(b.from, d.currency)}–${formatMoney(b.to, d.currency)}`,
    ...b.counts,
  }));
}

export function PriceDistributionChart({ distribution: d, sources }: { distribution: PriceDistribution; sources: readonly PriceSource[] }) {
  return (
    <BarChart
      h={280}
      data={chartData(d)}
      dataKey="range"
      series={sources.map((s) => ({
        name: s.marketplace,
        label: MARKETPLACES[s.marketplace].label,
        color: SERIES_COLOR[s.marketplace],
      }))}
      withLegend
      tickLine="y"
      xAxisLabel={`Price with shipping (${d.currency})`}
      yAxisLabel="ISBNs"
      // Counts of ISBNs: whole numbers on the axis.
      yAxisProps={{ allowDecimals: false }}
    />
  );
}
