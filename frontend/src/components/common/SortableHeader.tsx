// A column header that sorts on click (docs/requirements.md, Tables); the arrow says the current direction.
import { Group, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { ariaSort, type SortState } from '../../lib/sort';

export interface SortableHeaderProps {
  label: string;
  column: string;
  sort: SortState;
  onSort: (column: string) => void;
}

export function SortableHeader({ label, column, sort, onSort }: SortableHeaderProps) {
  const state = ariaSort(sort, column);
  const Icon = state === 'ascending' ? IconArrowUp : state === 'descending' ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton onClick={() => onSort(column)} fw={700} fz="sm" w="100%">
      <Group gap={4} wrap="nowrap">
        {label}
        <Icon size={14} stroke={1.5} aria-hidden opacity={state === 'none' ? 0.4 : 1} />
      </Group>
    </UnstyledButton>
  );
}
