import { PagedTable } from '../common/PagedTable';
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
    <PagedTable aria-label="Jobs" columns={jobColumns(sorting)} rowKey={(j) => j.id} paged={jobs} page={page} onChangePage={onChangePage} />
  );
}
