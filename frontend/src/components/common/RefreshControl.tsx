// Manual refresh of a table and when its data last arrived ('Last Refreshed'; docs/requirements.md, Jobs).
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { formatTime } from '../../lib/format';

export interface RefreshControlProps {
  onRefresh: () => void;
  isFetching: boolean;
  /** ms since epoch; 0 before the first answer. */
  updatedAt: number;
}

export function RefreshControl({ onRefresh, isFetching, updatedAt }: RefreshControlProps) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Tooltip label="Refresh">
        <ActionIcon variant="default" size="lg" aria-label="Refresh" onClick={onRefresh} loading={isFetching}>
          <IconRefresh size={18} />
        </ActionIcon>
      </Tooltip>
      <Text size="sm" c="dimmed" data-testid="last-refreshed">
        Last Refreshed: {updatedAt ? formatTime(updatedAt) : '—'}
      </Text>
    </Group>
  );
}
