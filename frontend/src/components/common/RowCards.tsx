// A table's rows as cards, for a phone: a wide table there is a keyhole onto one or two columns.
// Placeholder cards while loading, the table's empty state, dimmed while the previous page stands in.
import { Card, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DEFAULT_PLACEHOLDER_ROWS } from './TableSkeleton';

export interface RowCardsProps<T> {
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string | number;
  card: (row: T) => ReactNode;
  isPending: boolean;
  isPlaceholderData?: boolean;
  placeholderRows?: number;
  empty?: ReactNode;
  'aria-label'?: string;
}

export function RowCards<T>({
  rows,
  rowKey,
  card,
  isPending,
  isPlaceholderData = false,
  placeholderRows = DEFAULT_PLACEHOLDER_ROWS,
  empty = 'No results found',
  'aria-label': ariaLabel,
}: RowCardsProps<T>) {
  if (isPending)
    return (
      <Stack gap="sm" aria-busy aria-label={ariaLabel}>
        {Array.from({ length: placeholderRows }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, never reordered
          <Card key={i} withBorder padding="sm" data-testid="placeholder-row">
            <Skeleton h={64} />
          </Card>
        ))}
      </Stack>
    );
  if (!rows?.length)
    return typeof empty === 'string' ? (
      <Text c="dimmed" ta="center" py="lg">
        {empty}
      </Text>
    ) : (
      empty
    );
  return (
    <Stack
      gap="sm"
      component="ul"
      aria-label={ariaLabel}
      aria-busy={isPlaceholderData}
      data-testid="row-cards"
      m={0}
      p={0}
      style={{ listStyle: 'none', opacity: isPlaceholderData ? 0.5 : 1 }}
    >
      {rows.map((row) => (
        <li key={rowKey(row)}>{card(row)}</li>
      ))}
    </Stack>
  );
}
