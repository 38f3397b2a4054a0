// How the job's prices spread per selling marketplace: a bar chart of ISBNs per price bucket
// (buckets computed by the server). Mantine's own charts (recharts underneath) keep the theme.
import '@mantine/charts/styles.css';
import { PRICE_SOURCES } from '@app/domain/comparison';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { BarChart } from '@mantine/charts';
import { Skeleton, Stack, Text, Title } from '@mantine/core';
import type { JobPublic, PriceDistribution } from '../../client/types.gen';
import { formatMoney } from '../../lib/format';
import { usePriceDistribution } from './useJobPage';

/** Each selling marketplace's colour in every chart (the job's prices, a book's history). */
export const SERIES_COLOR: Partial<Record<MarketplaceId, string>> = { abe_books: 'red.7', biblio: 'blue.6', alibris: 'teal.7' };

/** One bar group per bucket, labelled by its price range; the last reads "$X+". */
export function chartData(d: PriceDistribution) {
  return d.buckets.map((b) => ({
    range: b.to === null ? `${formatMoney(b.from, d.currency)}+` : `${formatMoney(b.from, d.currency)}–${formatMoney(b.to, d.currency)}`,
    ...b.counts,
  }));
}

export function PriceChart({ job, live }: { job: JobPublic; live: boolean }) {
  const distribution = usePriceDistribution(job.id, live);
  const sources = PRICE_SOURCES.filter((s) => job[s.marketplace].enabled);
  const d = distribution.data;
  return (
    <Stack gap="sm" component="section" aria-labelledby="price-chart-title">
      <Title order={3} id="price-chart-title">
        Price distribution
      </Title>
      {!d ? (
        <Skeleton h={280} />
      ) : d.buckets.length === 0 ? (
        <Text size="sm" c="dimmed">
          No prices yet.
        </Text>
      ) : (
        <figure style={{ margin: 0 }} aria-label="ISBNs per price range and marketplace" data-testid="price-chart">
          <BarChart
            h={280}
            data={chartData(d)}
            dataKey="range"
            series={sources.map((s) => ({
              name: s.marketplace,
              label: MARKETPLACES[s.marketplace].label,
              color: SERIES_COLOR[s.marketplace] ?? 'gray.6',
            }))}
            withLegend
            tickLine="y"
            xAxisLabel={`Price with shipping (${d.currency})`}
            yAxisLabel="ISBNs"
            // Counts of ISBNs: whole numbers on the axis.
            yAxisProps={{ allowDecimals: false }}
          />
          <Text component="figcaption" size="xs" c="dimmed" mt="xs">
            The cheapest offer per ISBN, in buckets of {formatMoney(d.bucket_width, d.currency)}.
            {d.other_currency > 0 && ` ${d.other_currency} prices in other currencies are left out.`}
          </Text>
        </figure>
      )}
    </Stack>
  );
}
