// Every offer the marketplace returned for one lookup (the row shows only the best), with the
// lookup's status, attempts and, when it failed, the last error.
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { Alert, Center, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { readLookupOffersOptions } from '../../client/@tanstack/react-query.gen';
import type { LookupOffers } from './marketplace-api';
import { OffersTable } from './OffersTable';
import { StatusBadge } from './StatusBadge';
import { ReusedHint } from './ReusedHint';

function OffersBody({ lookup, row, note }: { lookup: LookupOffers; row?: Record<string, unknown>; note?: string }) {
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <StatusBadge status={lookup.lookup_status} />
        <Text size="sm" c="dimmed">
          Attempts: {lookup.attempts}
        </Text>
        <ReusedHint row={lookup} />
      </Group>
      {lookup.reused && (
        <Text size="sm" c="dimmed">
          Filled from an earlier answer for this ISBN instead of a new request to the marketplace.
        </Text>
      )}
      {lookup.lookup_status === 'failed' && lookup.last_error && (
        <Alert color="red" title="Last error">
          {lookup.last_error}
        </Alert>
      )}
      {lookup.lookup_status === 'no_offers_available' && lookup.last_error && (
        <Text size="sm" c="dimmed">
          {lookup.last_error}
        </Text>
      )}
      {note && (
        <Text size="sm" c="dimmed" data-testid="offers-note">
          {note}
        </Text>
      )}
      {lookup.offers.length ? (
        <OffersTable offers={lookup.offers} row={row} />
      ) : (
        <Text size="sm" c="dimmed">
          No offers.
        </Text>
      )}
    </Stack>
  );
}

export function OffersDrawer({
  marketplace,
  lookupId,
  row,
  onClose,
}: {
  marketplace: MarketplaceInfo;
  lookupId: number | null;
  /** The table row that was clicked: the offer it was taken from is marked. */
  row?: Record<string, unknown>;
  onClose: () => void;
}) {
  const query = useQuery({
    ...readLookupOffersOptions({ path: { market: marketplace.slug, id: lookupId ?? 0 } }),
    enabled: lookupId !== null,
  });
  const title = query.data ? `Offers for ISBN ${query.data.isbn}` : 'Offers';
  return (
    <Drawer
      opened={lookupId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={title}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {query.data ? (
        <OffersBody lookup={query.data} row={row} note={marketplace.offersNote} />
      ) : query.isError ? (
        <Text size="sm" c="red">
          The offers could not be loaded.
        </Text>
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading offers" />
        </Center>
      )}
    </Drawer>
  );
}
