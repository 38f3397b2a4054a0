// A DataTable fed by usePagedQuery, with its PaginationFooter underneath: every paged list in the app.
import { DataTable, type DataTableProps } from './DataTable';
import { PaginationFooter } from './PaginationFooter';

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
}

export function PagedTable<T>({ paged, page, onChangePage, ...table }: PagedTableProps<T>) {
  return (
    <>
      <DataTable {...table} rows={paged.rows} isPending={paged.isPending} isPlaceholderData={paged.isPlaceholderData} />
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
