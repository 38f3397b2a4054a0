// /jobs (spec §2): New Job, refresh with 'Last Refreshed', filter builder and a sortable table.
import { JOB_FIELDS } from '@app/domain/jobs';
import { Group, Stack } from '@mantine/core';
import { useTableSearch } from '../../hooks/useTableSearch';
import type { TableSearch } from '../../lib/table-search';
import { PageTitle } from '../common/PageTitle';
import { RefreshControl } from '../common/RefreshControl';
import { FilterBuilder } from '../filters/FilterBuilder';
import { JobsTable } from './JobsTable';
import { NewJobButton } from './NewJobButton';
import { useJobs } from './useJobs';

export function JobsPage({ search }: { search: TableSearch }) {
  const { page, setPage, filters, setFilters, sort, toggleSort } = useTableSearch(search, JOB_FIELDS);
  const jobs = useJobs({ page, filters, sort });
  return (
    <Stack gap="md">
      <PageTitle>Jobs</PageTitle>
      <Group justify="space-between">
        <NewJobButton />
        <RefreshControl onRefresh={() => void jobs.refetch()} isFetching={jobs.isFetching} updatedAt={jobs.dataUpdatedAt} />
      </Group>
      <FilterBuilder fields={JOB_FIELDS} value={filters} onApply={setFilters} />
      <JobsTable jobs={jobs} page={page} onChangePage={setPage} sorting={{ sort, onSort: toggleSort }} />
    </Stack>
  );
}
