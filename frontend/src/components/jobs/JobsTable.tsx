import { DataTable } from '../common/DataTable';
import { PaginationFooter } from '../common/PaginationFooter';
import type { SortState } from '../../lib/sort';
import { jobColumns } from './jobColumns';
import type { useJobs } from './useJobs';

export interface JobsTableProps {
  jobs: ReturnType<typeof useJobs>;
  page: number;
  onChangePage: (page: number) => void;
  sorting?: { sort: SortState; onSort: (column: string) => void };
}

/** The jobs table and its pager, on the home page and on /jobs. */
export function JobsTable({ jobs, page, onChangePage, sorting }: JobsTableProps) {
  return (
    <>
      <DataTable
        aria-label="Jobs"
        columns={jobColumns(sorting)}
        rows={jobs.rows}
        rowKey={(j) => j.id}
        isPending={jobs.isPending}
        isPlaceholderData={jobs.isPlaceholderData}
      />
      <PaginationFooter
        page={page}
        hasNextPage={jobs.hasNextPage}
        hasPreviousPage={jobs.hasPreviousPage}
        rangeText={jobs.rangeText}
        onChangePage={onChangePage}
      />
    </>
  );
}
