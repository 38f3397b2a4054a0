// How the job's prices spread per selling marketplace: a bar chart of ISBNs per price bucket
// (buckets computed by the server). Mantine's own charts (recharts underneath) keep the theme; the
// chart itself is fetched only when there are prices to draw.
import { PRICE_SOURCES } from '@app/domain/comparison';
import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { JobPublic } from '../../client/types.gen';
import { formatMoney } from '../../lib/format';
import { usePriceDistribution } from './useJobPage';

const PriceDistributionChart = lazy(async () => ({
  default: (await import('./PriceDistributionChart')).PriceDistributionChart,
}));

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
          <Suspense fallback={<Skeleton h={280} />}>
            <PriceDistributionChart distribution={d} sources={sources} />
          </Suspense>
          <Text component="figcaption" size="xs" c="dimmed" mt="xs">
            The cheapest offer per ISBN, in buckets of {formatMoney(d.bucket_width, d.currency)}.
            {d.other_currency > 0 && ` ${d.other_currency} prices in other currencies are left out.`}
          </Text>
        </figure>
      )}
    </Stack>
  );
}
