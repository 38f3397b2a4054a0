// Every offer the marketplace returned for one lookup (the row shows only the best), with the
// lookup's status, attempts and, when it failed, the last error.
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { Alert, Center, Drawer, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { marketplaceApi, type LookupOffers } from '../../lib/marketplace-api';
import { offerCellText, offerKeys } from '../../lib/offers';
import { OrNA } from '../common/EmptyValue';
import { StatusBadge } from './StatusBadge';

function OffersTable({ offers }: { offers: Record<string, unknown>[] }) {
  const keys = offerKeys(offers);
  return (
    <Table.ScrollContainer minWidth={400}>
      <Table striped withTableBorder fz="xs" verticalSpacing={4} aria-label="Offers">
        <Table.Thead>
          <Table.Tr>
            {keys.map((k) => (
              <Table.Th key={k}>{k}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {offers.map((o, i) => (
            <Table.Tr key={i}>
              {keys.map((k) => (
                <Table.Td key={k}>
                  <OrNA value={o[k]}>{offerCellText(o[k])}</OrNA>
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function OffersBody({ lookup }: { lookup: LookupOffers }) {
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <StatusBadge status={lookup.lookup_status} />
        <Text size="sm" c="dimmed">
          Attempts: {lookup.attempts}
        </Text>
      </Group>
      {lookup.lookup_status === 'failed' && lookup.last_error && (
        <Alert color="red" title="Last error">
          {lookup.last_error}
        </Alert>
      )}
      {lookup.offers.length ? (
        <OffersTable offers={lookup.offers} />
      ) : (
        <Text size="sm" c="dimmed">
          No offers.
        </Text>
      )}
    </Stack>
  );
}

export function OffersDrawer({ marketplace, lookupId, onClose }: { marketplace: MarketplaceInfo; lookupId: number | null; onClose: () => void }) {
  const api = useMemo(() => marketplaceApi(marketplace.id), [marketplace.id]);
  const query = useQuery({
    queryKey: ['lookups', marketplace.id, 'offers', lookupId],
    queryFn: ({ signal }) => api.readOffers(lookupId!, signal),
    enabled: lookupId !== null,
  });
  const title = query.data ? `Offers for ISBN ${query.data.isbn}` : 'Offers';
  return (
    <Drawer opened={lookupId !== null} onClose={onClose} position="right" size="xl" title={title}>
      {query.data ? (
        <OffersBody lookup={query.data} />
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
