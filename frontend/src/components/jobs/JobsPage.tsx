// /jobs (docs/requirements.md, Jobs): New Job, refresh with 'Last Refreshed', filter builder and a sortable
// table.
import { JOB_FIELDS } from '@app/domain/jobs';
import { Group, Stack, Switch } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
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
  // Remembered in this browser: someone who wants their one-book lookups listed wants it every time.
  const [showBookLookups, setShowBookLookups] = useLocalStorage({ key: 'jobs-show-book-lookups', defaultValue: false });
  const jobs = useJobs({ page, filters, sort, showBookLookups });
  return (
    <Stack gap="md">
      <PageTitle>Jobs</PageTitle>
      <Group justify="space-between">
        <NewJobButton />
        <RefreshControl onRefresh={() => void jobs.refetch()} isFetching={jobs.isFetching} updatedAt={jobs.dataUpdatedAt} />
      </Group>
      <FilterBuilder fields={JOB_FIELDS} value={filters} onApply={setFilters} />
      <Switch
        label="Show one-book lookups"
        description="Jobs made by a book page's Price it now"
        checked={showBookLookups}
        onChange={(e) => {
          setShowBookLookups(e.currentTarget.checked);
          setPage(1);
        }}
      />
      <JobsTable jobs={jobs} page={page} onChangePage={setPage} sorting={{ sort, onSort: toggleSort }} />
    </Stack>
  );
}
