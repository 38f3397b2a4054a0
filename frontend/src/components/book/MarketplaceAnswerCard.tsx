// One marketplace's latest answer on a book's page: when, its status, the headline price and its offers.
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { BookAnswer } from '../../client/types.gen';
import { formatDateTime, formatMoney } from '../../lib/format';
import { StatusBadge } from '../marketplace/StatusBadge';
import { OfferSummaryTable } from './OfferSummaryTable';

export function MarketplaceAnswerCard({ marketplace, answer }: { marketplace: MarketplaceId; answer: BookAnswer }) {
  const label = MARKETPLACES[marketplace].label;
  return (
    <Card withBorder padding="md" component="section" aria-label={label} data-marketplace={marketplace}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Title order={4}>{label}</Title>
          <StatusBadge status={answer.status} />
        </Group>
        <Group gap="md" wrap="wrap">
          <Text size="xl" fw={700} data-testid="headline-price">
            {answer.price === null ? 'No price' : formatMoney(answer.price, answer.currency ?? 'USD')}
          </Text>
          <Text size="sm" c="dimmed">
            {answer.offer_count === 1 ? '1 offer' : `${answer.offer_count} offers`} · answered {formatDateTime(answer.observed_at)}
          </Text>
        </Group>
        {MARKETPLACES[marketplace].offersNote && (
          <Text size="sm" c="dimmed" data-testid="offers-note">
            {MARKETPLACES[marketplace].offersNote}
          </Text>
        )}
        {answer.offers.length ? (
          <OfferSummaryTable
            offers={answer.offers}
            summaries={answer.summaries}
            label={`${label} offers`}
            fields={MARKETPLACES[marketplace].fields}
          />
        ) : (
          <Text size="sm" c="dimmed">
            No offers.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
