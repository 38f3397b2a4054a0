// /admin/audit (superusers): who did what, with the lists' filter builder, sort, paging and CSV.
import { AUDIT_FIELDS } from '@app/domain/audit';
import { fileTimestamp } from '@app/domain/files';
import { Group, Stack, Text } from '@mantine/core';
import { useTableSearch } from '../../hooks/useTableSearch';
import type { TableSearch } from '../../lib/table-search';
import { PageTitle } from '../common/PageTitle';
import { PagedTable } from '../common/PagedTable';
import { RefreshControl } from '../common/RefreshControl';
import { FilterBuilder } from '../filters/FilterBuilder';
import { CsvFileButton } from '../common/CsvFileButton';
import { auditColumns } from './auditColumns';
import { fetchAuditCsv, useAuditEvents } from './useAuditEvents';

export function AuditPage({ search }: { search: TableSearch }) {
  const { page, setPage, filters, setFilters, sort, toggleSort } = useTableSearch(search, AUDIT_FIELDS);
  const events = useAuditEvents({ page, filters, sort });
  return (
    <Stack gap="md">
      <PageTitle>Audit trail</PageTitle>
      <Text size="sm" c="dimmed">
        Jobs created, cancelled, retried, re-priced and deleted; users created, changed and deleted; sign-ins and password changes.
        Passwords and tokens are never recorded.
      </Text>
      <Group justify="space-between">
        <CsvFileButton fetchCsv={() => fetchAuditCsv(filters, sort)} fallbackName={() => `audit_events_${fileTimestamp(new Date())}.csv`} />
        <RefreshControl onRefresh={() => void events.refetch()} isFetching={events.isFetching} updatedAt={events.dataUpdatedAt} />
      </Group>
      <FilterBuilder fields={AUDIT_FIELDS} value={filters} onApply={setFilters} />
      <PagedTable
        aria-label="Audit events"
        columns={auditColumns(sort, toggleSort)}
        rowKey={(e) => e.id}
        paged={events}
        page={page}
        onChangePage={setPage}
      />
    </Stack>
  );
}
