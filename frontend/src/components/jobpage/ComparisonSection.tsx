// The comparison across marketplaces on the job page: one row per ISBN with each marketplace's
// price in its currency, the best source, the spread and PalletIQ's verdict; the same filter
// builder, header sorting, paging and CSV download as the other tables, all done by the server.
import { CHANGE_FIELDS, COMPARISON_FIELDS, comparisonFieldSource } from '@app/domain/comparison';
import type { FieldDef } from '@app/domain/fields';
import { Box, Group, Stack, Text, Title } from '@mantine/core';
import { jobDownloadComparisonCsv } from './comparison-api';
import type { ComparisonRow, JobPublic } from '../../client/types.gen';
import { useTableSearch } from '../../hooks/useTableSearch';
import { fileTimestamp } from '../../lib/download';
import { ariaSort, type SortState } from '../../lib/sort';
import type { TableSearch } from '../../lib/table-search';
import type { DataColumn } from '../common/DataTable';
import { PagedTable } from '../common/PagedTable';
import { SortableHeader } from '../common/SortableHeader';
import { FilterBuilder } from '../filters/FilterBuilder';
import { CsvFileButton } from '../marketplace/DownloadCsvButton';
import { LookupValue } from '../marketplace/LookupValue';
import { PriceChangeValue } from './PriceChangeValue';
import { useComparison } from './useJobPage';

/** The fields of the marketplaces the job asks (another's would be N/A in every row). */
export function comparisonFieldsOf(job: JobPublic): FieldDef[] {
  return COMPARISON_FIELDS.filter((f) => {
    const source = comparisonFieldSource(f.name);
    return !source || job[source].enabled;
  });
}

function comparisonColumns(fields: readonly FieldDef[], sort: SortState, onSort: (column: string) => void): DataColumn<ComparisonRow>[] {
  return fields.map((f) => ({
    key: f.name,
    header: <SortableHeader label={f.label} column={f.name} sort={sort} onSort={onSort} />,
    sort: ariaSort(sort, f.name),
    align: f.format === 'money' ? ('right' as const) : undefined,
    sticky: f.name === 'isbn',
    render: (row) =>
      CHANGE_FIELDS.has(f.name) ? (
        <PriceChangeValue field={f} row={row} />
      ) : f.name === 'title' ? (
        <Box miw="8rem" maw="16rem">
          <LookupValue field={f} row={row} />
        </Box>
      ) : (
        <LookupValue field={f} row={row} />
      ),
  }));
}

export function ComparisonSection({ job, search, live }: { job: JobPublic; search: TableSearch; live: boolean }) {
  const { page, setPage, filters, setFilters, sort, toggleSort } = useTableSearch(search, COMPARISON_FIELDS);
  const rows = useComparison(job.id, { page, filters, sort }, live);
  const fields = comparisonFieldsOf(job);
  return (
    <Stack gap="sm" component="section" aria-labelledby="comparison-title">
      <Group justify="space-between">
        <Title order={3} id="comparison-title">
          Comparison
        </Title>
        <CsvFileButton
          fetchCsv={() => jobDownloadComparisonCsv(job.id, { filters, ...sort })}
          fallbackName={() => `job_${job.id}_comparison_${fileTimestamp(new Date())}.csv`}
        />
      </Group>
      <Text size="sm" c="dimmed">
        Best price and spread compare US dollar prices only; a price in another currency is shown with its currency and left out.
      </Text>
      <FilterBuilder fields={fields} value={filters} onApply={setFilters} />
      <PagedTable
        aria-label="Comparison"
        columns={comparisonColumns(
          fields.filter((f) => f.column),
          sort,
          toggleSort,
        )}
        rowKey={(r) => r.id}
        paged={rows}
        page={page}
        onChangePage={setPage}
      />
    </Stack>
  );
}
