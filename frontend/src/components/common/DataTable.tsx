// A plain table driven by column definitions: placeholder rows while loading, an empty state,
// rows dimmed while the previous page stands in for the one being fetched, and optionally rows
// that open something when clicked (or Enter is pressed on them). A table wider than its box
// scrolls sideways with a scrollbar above it as well as below, its pinned columns staying in view.
import { Table, Text } from '@mantine/core';
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import classes from './DataTable.module.css';
import { TableSkeleton } from './TableSkeleton';
import { usePinnedOffsets } from './usePinnedOffsets';
import { useTopScrollbar } from './useTopScrollbar';

export interface DataColumn<T> {
  key: string;
  /** Header content; a string, or e.g. a sortable header button. */
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
  /** Amounts read right-aligned so their decimals line up. */
  align?: 'right';
  /** Stays in view while the table scrolls sideways (the ISBN and title of wide lookup tables). */
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
  const scroll = useTopScrollbar();
  const headerRow = useRef<HTMLTableRowElement>(null);
  const pinnedKeys = columns.filter((c) => c.sticky).map((c) => c.key);
  const offsets = usePinnedOffsets(headerRow, pinnedKeys);
  const lastPinned = pinnedKeys.at(-1);
  // A pinned cell's props: sticky at its offset; the last pinned one carries the edge shadow.
  const pin = (c: DataColumn<T>) => {
    if (!c.sticky) return {};
    const className = c.key === lastPinned ? `${classes.pinned} ${classes.lastPinned}` : classes.pinned;
    return { className, style: { left: offsets[c.key] ?? 0 } };
  };

  return (
    <div className={scroll.scrolled ? classes.scrolled : undefined}>
      {/* A mouse convenience repeating the table's own scrollbar, which keyboards reach: hidden from assistive technology. */}
      <div
        ref={scroll.top}
        className={classes.topScrollbar}
        onScroll={scroll.onTopScroll}
        hidden={!scroll.overflowing}
        aria-hidden
        data-testid="top-scrollbar"
      >
        <div style={{ width: scroll.contentWidth, height: 1 }} />
      </div>
      {/* Native scrolling: the scrollbar is always drawn while the table overflows, not only on hover. */}
      <Table.ScrollContainer
        type="native"
        minWidth={600}
        ref={scroll.viewport}
        onScroll={scroll.onViewportScroll}
        tabIndex={0}
        data-testid="table-scroll"
      >
        <Table
          striped
          highlightOnHover
          verticalSpacing="sm"
          aria-label={ariaLabel}
          aria-busy={isPending || isPlaceholderData}
          className={classes.table}
        >
          <Table.Thead>
            <Table.Tr ref={headerRow}>
              {columns.map((c) => (
                <Table.Th key={c.key} w={c.width} ta={c.align} aria-sort={c.sort} data-pinned={c.sticky ? c.key : undefined} {...pin(c)}>
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
                    <Table.Td key={c.key} ta={c.align} {...pin(c)}>
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
    </div>
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
