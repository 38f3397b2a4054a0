// A DataTable fed by usePagedQuery, with its PaginationFooter underneath: every paged list in the app.
// Given `card`, a phone gets the rows as cards instead of the table.
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './DataTable';
import { PaginationFooter } from './PaginationFooter';
import { RowCards } from './RowCards';

/** Below this width a table with cards shows its cards (a phone; a small tablet keeps the table). */
export const CARDS_BELOW = '36em';

/** The part of usePagedQuery's result the table and its pager read. */
export interface PagedRows<T> {
  rows: readonly T[] | undefined;
  isPending: boolean;
  isPlaceholderData: boolean;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  rangeText?: string;
}

export interface PagedTableProps<T> extends Omit<DataTableProps<T>, 'rows' | 'isPending' | 'isPlaceholderData'> {
  paged: PagedRows<T>;
  page: number;
  onChangePage: (page: number) => void;
  /** One row as a card, shown instead of the table on a phone. */
  card?: (row: T) => ReactNode;
}

export function PagedTable<T>({ paged, page, onChangePage, card, ...table }: PagedTableProps<T>) {
  const phone = useMediaQuery(`(max-width: ${CARDS_BELOW})`, false, { getInitialValueInEffect: false });
  return (
    <>
      {card && phone ? (
        <RowCards
          card={card}
          rows={paged.rows}
          rowKey={table.rowKey}
          isPending={paged.isPending}
          isPlaceholderData={paged.isPlaceholderData}
          placeholderRows={table.placeholderRows}
          empty={table.empty}
          aria-label={table['aria-label']}
        />
      ) : (
        <DataTable {...table} rows={paged.rows} isPending={paged.isPending} isPlaceholderData={paged.isPlaceholderData} />
      )}
      <PaginationFooter
        page={page}
        hasNextPage={paged.hasNextPage}
        hasPreviousPage={paged.hasPreviousPage}
        rangeText={paged.rangeText}
        onChangePage={onChangePage}
      />
    </>
  );
}
