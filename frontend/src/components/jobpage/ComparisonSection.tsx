// The comparison across marketplaces on the job page: one row per ISBN with each marketplace's
// price in its currency, the best source, the spread and PalletIQ's verdict; the same filter
// builder, header sorting, paging and CSV download as the other tables, all done by the server.
// A short set of columns by default, the rest a column chooser away (remembered per user); ISBN,
// title and decision stay pinned while the rest scroll. On a phone every row is a card.
import { CHANGE_FIELDS, COMPARISON_FIELDS, DECISION_FIELD, comparisonFieldSource } from '@app/domain/comparison';
import type { FieldDef } from '@app/domain/fields';
import { Box, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { jobDownloadComparisonCsv } from './comparison-api';
import type { ComparisonRow, JobPublic } from '../../client/types.gen';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { useTableSearch } from '../../hooks/useTableSearch';
import { shownFields } from '../../lib/column-choice';
import { COMPARISON_PINNED, comparisonColumnsKey, comparisonDefaults, pinnedFirst } from './comparison-columns';
import { formatMoney } from '../../lib/format';
import { fileTimestamp } from '../../lib/download';
import { ariaSort, type SortState } from '../../lib/sort';
import type { TableSearch } from '../../lib/table-search';
import type { DataColumn } from '../common/DataTable';
import { PagedTable } from '../common/PagedTable';
import { SortableHeader } from '../common/SortableHeader';
import { FilterBuilder } from '../filters/FilterBuilder';
import { BookCard } from '../book/BookCard';
import { OrNA } from '../common/EmptyValue';
import { ColumnChooser } from '../marketplace/ColumnChooser';
import { CsvFileButton } from '../common/CsvFileButton';
import { useColumnChoice } from '../marketplace/useColumnChoice';
import { LookupValue } from '../marketplace/LookupValue';
import { useMemo } from 'react';
import { DecisionBadge, type DecisionColors, decisionColors } from './DecisionBadge';
import { PriceChangeValue } from './PriceChangeValue';
import { useComparison, useJobDecisions } from './useJobPage';

/** The fields of the marketplaces the job asks (another's would be N/A in every row). */
export function comparisonFieldsOf(job: JobPublic): FieldDef[] {
  return COMPARISON_FIELDS.filter((f) => {
    const source = comparisonFieldSource(f.name);
    return !source || job[source].enabled;
  });
}

function comparisonColumns(
  fields: readonly FieldDef[],
  sort: SortState,
  onSort: (column: string) => void,
  colors: DecisionColors,
): DataColumn<ComparisonRow>[] {
  return fields.map((f) => ({
    key: f.name,
    header: <SortableHeader label={f.label} column={f.name} sort={sort} onSort={onSort} />,
    sort: ariaSort(sort, f.name),
    align: f.format === 'money' ? ('right' as const) : undefined,
    sticky: (COMPARISON_PINNED as readonly string[]).includes(f.name),
    render: (row) =>
      f.name === DECISION_FIELD && typeof row.decision === 'string' ? (
        <DecisionBadge outcome={row.decision} colors={colors} />
      ) : CHANGE_FIELDS.has(f.name) ? (
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

/** A comparison row on a phone: the book, its decision, where it sells best, the profit and Amazon's rank. */
function comparisonCard(row: ComparisonRow, colors: DecisionColors) {
  const money = (v: unknown) => <OrNA value={v}>{formatMoney(v, 'USD')}</OrNA>;
  const best =
    row.best_price === null || row.best_price === undefined ? null : `${formatMoney(row.best_price, 'USD')} at ${row.best_source}`;
  const rank = typeof row.amazon_sales_rank === 'number' ? row.amazon_sales_rank.toLocaleString('en-US') : null;
  return (
    <BookCard
      isbn={String(row.isbn)}
      title={typeof row.title === 'string' ? row.title : undefined}
      badge={typeof row.decision === 'string' ? <DecisionBadge outcome={row.decision} colors={colors} /> : undefined}
      lines={[
        { label: 'Best price', value: <OrNA value={best} /> },
        { label: 'Estimated profit', value: money(row.estimated_profit) },
        { label: 'Amazon sales rank', value: <OrNA value={rank} /> },
      ]}
    />
  );
}

/** Fields a user may choose: every comparison field of the job but the internal row id. */
const choosable = (job: JobPublic) => comparisonFieldsOf(job).filter((f) => f.name !== 'id');

export function ComparisonSection({ job, search, live }: { job: JobPublic; search: TableSearch; live: boolean }) {
  // The choice is the user's: wait for who that is (the layout has usually loaded it already).
  const user = useCurrentUser().data;
  if (!user) return <Skeleton h={400} />;
  return <Comparison job={job} search={search} live={live} userId={user.id} />;
}

function Comparison({ job, search, live, userId }: { job: JobPublic; search: TableSearch; live: boolean; userId: string }) {
  const { page, setPage, filters, setFilters, sort, toggleSort } = useTableSearch(search, COMPARISON_FIELDS);
  const rows = useComparison(job.id, { page, filters, sort }, live);
  const fields = comparisonFieldsOf(job);
  const colors = decisionColors(useJobDecisions(job.id, live).data?.outcomes);
  const columnFields = useMemo(() => choosable(job), [job]);
  const columns = useColumnChoice(
    comparisonColumnsKey(userId),
    columnFields,
    useMemo(() => comparisonDefaults(columnFields), [columnFields]),
  );
  return (
    <Stack gap="sm" component="section" aria-labelledby="comparison-title">
      <Group justify="space-between">
        <Title order={3} id="comparison-title">
          Comparison
        </Title>
        <Group gap="sm">
          <ColumnChooser
            fields={columnFields}
            choice={columns.choice}
            onChange={columns.setChoice}
            isDefault={columns.isDefault}
            onReset={columns.reset}
          />
          <CsvFileButton
            fetchCsv={() => jobDownloadComparisonCsv(job.id, { filters, ...sort })}
            fallbackName={() => `job_${job.id}_comparison_${fileTimestamp(new Date())}.csv`}
          />
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        Best price and spread compare US dollar prices only; a price in another currency is shown with its currency and left out.
      </Text>
      <FilterBuilder fields={fields} value={filters} onApply={setFilters} />
      <PagedTable
        aria-label="Comparison"
        columns={comparisonColumns(pinnedFirst(shownFields(columns.choice, columnFields)), sort, toggleSort, colors)}
        rowKey={(r) => r.id}
        card={(r) => comparisonCard(r, colors)}
        paged={rows}
        page={page}
        onChangePage={setPage}
      />
    </Stack>
  );
}
