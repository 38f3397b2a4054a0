// How fast a book sells, on its page (docs/features/velocity.md): our figures, from Keepa's rank
// series when we have it, else from our own looks, with how many ranked points they rest on (a thin
// history is marked thin), and Keepa's own figures from its stats beside them when it sent any.
import { SALE_RANK_IMPROVEMENT, THIN_VELOCITY_OBSERVATIONS } from '@app/domain/velocity';
import { Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import type { BookVelocity, KeepaStats } from '../../client/types.gen';
import { formatDateTime, formatMoney } from '../../lib/format';

const count = (n: number | null | undefined) => (n == null ? '—' : n.toLocaleString('en-US'));
const rank = (n: number | null | undefined) => (n == null ? '—' : `#${n.toLocaleString('en-US')}`);

/** The card's rows: our figure and Keepa's (none: Keepa has no such figure). */
const ROWS: {
  label: string;
  ours: (v: BookVelocity) => number | null;
  keepa?: (k: KeepaStats) => number | null;
  format: (n: number | null | undefined) => string;
}[] = [
  { label: 'Rank drops 30 d', ours: (v) => v.rank_drops_30, keepa: (k) => k.rank_drops_30, format: count },
  { label: 'Rank drops 90 d', ours: (v) => v.rank_drops_90, keepa: (k) => k.rank_drops_90, format: count },
  { label: 'Rank drops 180 d', ours: (v) => v.rank_drops_180, keepa: (k) => k.rank_drops_180, format: count },
  { label: 'Avg rank 90 d', ours: (v) => v.avg_rank_90, keepa: (k) => k.avg_rank_90, format: rank },
  { label: 'Avg rank 180 d', ours: (v) => v.avg_rank_180, keepa: (k) => k.avg_rank_180, format: rank },
  { label: 'Sale days 180 d', ours: (v) => v.sale_days_180, format: count },
];

const SOURCE_TEXT = { keepa: 'Keepa’s rank series', amazon: 'our own Amazon looks' } as const;

export function VelocityCard({ velocity, keepa }: { velocity: BookVelocity | null; keepa: KeepaStats | null }) {
  const seen = velocity !== null && velocity.observations > 0 ? velocity : null;
  const thin = seen !== null && seen.observations < THIN_VELOCITY_OBSERVATIONS;
  return (
    // Capped: on a wide screen a full-width table would put the figures far from their names.
    <Card withBorder padding="sm" maw={560} data-testid="velocity-card" data-source={seen?.source ?? 'none'}>
      <Stack gap="xs">
        {seen ? (
          <Group gap="xs" wrap="wrap" align="center">
            <Text size="sm" data-testid="velocity-observations" data-count={seen.observations}>
              {seen.observations === 1 ? '1 ranked observation' : `${count(seen.observations)} ranked observations`} in 180 days, from{' '}
              {SOURCE_TEXT[seen.source]}
            </Text>
            {thin && (
              <Badge color="orange" variant="dot" title={`Fewer than ${THIN_VELOCITY_OBSERVATIONS} ranks in 180 days`}>
                Thin history
              </Badge>
            )}
          </Group>
        ) : (
          <Text size="sm" c="dimmed" data-testid="velocity-observations" data-count={0}>
            No sales rank seen in 180 days: pricing it at Amazon starts the history.
          </Text>
        )}
        {(seen || keepa) && (
          <Table fz="sm" verticalSpacing={4} aria-label="Velocity">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Figure</Table.Th>
                <Table.Th ta="right">Ours</Table.Th>
                {keepa && <Table.Th ta="right">Keepa’s</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {ROWS.map((r) => (
                <Table.Tr key={r.label}>
                  <Table.Td>{r.label}</Table.Td>
                  <Table.Td ta="right" data-figure="ours">
                    {seen ? r.format(r.ours(seen)) : '—'}
                  </Table.Td>
                  {keepa && (
                    <Table.Td ta="right" data-figure="keepa">
                      {r.keepa ? r.format(r.keepa(keepa)) : '—'}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {keepa && (
          <Text size="xs" c="dimmed" data-testid="keepa-now">
            Keepa now: rank {rank(keepa.current_rank)} · used {keepa.used_price === null ? '—' : formatMoney(keepa.used_price, 'USD')} · new{' '}
            {keepa.new_price === null ? '—' : formatMoney(keepa.new_price, 'USD')} · {formatDateTime(keepa.at)}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          A drop is a step to a rank better by more than {Math.round(SALE_RANK_IMPROVEMENT * 100)} %, taken as a sale; a sale day has one.
          {keepa && ' Keepa counts drops by its own rule.'}
          {seen && ` As of ${formatDateTime(seen.computed_at)}.`}
        </Text>
      </Stack>
    </Card>
  );
}
