// A plain table driven by column definitions: placeholder rows while loading, an empty state,
// rows dimmed while the previous page stands in for the one being fetched, and optionally rows
// that open something when clicked (or Enter is pressed on them).
import { Table, Text } from '@mantine/core';
import type { KeyboardEvent, ReactNode } from 'react';
import { TableSkeleton } from './TableSkeleton';

export interface DataColumn<T> {
  key: string;
  /** Header content; a string, or e.g. a sortable header button. */
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
  /** Amounts read right-aligned so their decimals line up. */
  align?: 'right';
  /** Stays in view while the table scrolls sideways (the ISBN of wide lookup tables). */
  sticky?: boolean;
  /** aria-sort of a sortable column's header. */
  sort?: 'ascending' | 'descending' | 'none';
}

export interface DataTableProps<T> {
  columns: readonly DataColumn<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string | number;
  /** No data yet: show placeholder rows. */
  isPending: boolean;
  /** Rows are the previous page kept while the next one loads. */
  isPlaceholderData?: boolean;
  placeholderRows?: number;
  empty?: ReactNode;
  'aria-label'?: string;
  onRowClick?: (row: T) => void;
}

/** A table wider than the window scrolls; keyboard users reach that scroll area with Tab (axe's scrollable-region-focusable). */
export const KEYBOARD_SCROLLABLE = { viewportProps: { tabIndex: 0 } };

// Opaque so the columns scrolling underneath do not show through; a shadow marks the edge.
const STICKY = { position: 'sticky', left: 0, zIndex: 1, background: 'var(--mantine-color-body)', boxShadow: 'inset -1px 0 0 var(--mantine-color-default-border)' } as const;

export function DataTable<T>({
  columns,
  rows,
  rowKey,
  isPending,
  isPlaceholderData = false,
  placeholderRows,
  empty = 'No results found',
  'aria-label': ariaLabel,
  onRowClick,
}: DataTableProps<T>) {
  return (
    <Table.ScrollContainer minWidth={600} scrollAreaProps={KEYBOARD_SCROLLABLE}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-label={ariaLabel} aria-busy={isPending || isPlaceholderData}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} w={c.width} ta={c.align} aria-sort={c.sort} style={c.sticky ? STICKY : undefined}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody style={{ opacity: isPlaceholderData ? 0.5 : 1 }}>
          {isPending ? (
            <TableSkeleton columns={columns.length} rows={placeholderRows} />
          ) : rows && rows.length > 0 ? (
            rows.map((row) => (
              <Table.Tr key={rowKey(row)} {...(onRowClick ? clickableRow(() => onRowClick(row)) : {})}>
                {columns.map((c) => (
                  <Table.Td key={c.key} ta={c.align} style={c.sticky ? STICKY : undefined}>
                    {c.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          ) : (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                {typeof empty === 'string' ? (
                  <Text c="dimmed" ta="center" py="lg">
                    {empty}
                  </Text>
                ) : (
                  empty
                )}
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function clickableRow(open: () => void) {
  return {
    onClick: open,
    onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => {
      if (e.key === 'Enter' && e.target === e.currentTarget) open();
    },
    tabIndex: 0,
    style: { cursor: 'pointer' },
  };
}
