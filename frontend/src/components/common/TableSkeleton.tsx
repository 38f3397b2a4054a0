// Placeholder rows shown while a table's first page loads (4 by default; docs/requirements.md, Tables).
import { Skeleton, Table } from '@mantine/core';

export const DEFAULT_PLACEHOLDER_ROWS = 4;

export interface TableSkeletonProps {
  columns: number;
  rows?: number;
}

/** Renders <tr>s only, so it drops into any <Table.Tbody>. */
export function TableSkeleton({ columns, rows = DEFAULT_PLACEHOLDER_ROWS }: TableSkeletonProps) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder rows, never reordered
        <Table.Tr key={r} data-testid="placeholder-row">
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder cells, never reordered
            <Table.Td key={c}>
              <Skeleton height={14} radius="sm" />
            </Table.Td>
          ))}
        </Table.Tr>
      ))}
    </>
  );
}
