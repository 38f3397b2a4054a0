// One marketplace's price-lookup page (docs/requirements.md, Marketplace pages): upload, CSV download,
// column chooser, refresh, filter builder, sortable paged table; a row opens every offer of that lookup. On
// a phone the rows are cards, and a tap opens the book's page.
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { Group, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTableSearch } from '../../hooks/useTableSearch';
import { columnChoiceKey, shownFields } from '../../lib/column-choice';
import type { LookupRow } from './marketplace-api';
import type { TableSearch } from '../../lib/table-search';
import { PagedTable } from '../common/PagedTable';
import { PageTitle } from '../common/PageTitle';
import { RefreshControl } from '../common/RefreshControl';
import { FilterBuilder } from '../filters/FilterBuilder';
import { ColumnChooser } from './ColumnChooser';
import { DownloadCsvButton } from './DownloadCsvButton';
import { lookupCard, lookupColumns, PINNED_FIELDS } from './lookupColumns';
import { OffersDrawer } from './OffersDrawer';
import { SimulatedPricesNotice } from './SimulatedPricesNotice';
import { UploadFileButton } from './UploadFileModal';
import { useColumnChoice } from './useColumnChoice';
import { useLookups } from './useLookups';

// On a phone a pinned title would leave no room to scroll the rest; only the ISBN stays pinned there.
const ISBN_ONLY = ['isbn'];

export function MarketplacePage({ marketplace: m, search }: { marketplace: MarketplaceInfo; search: TableSearch }) {
  const { page, setPage, filters, setFilters, sort, toggleSort } = useTableSearch(search, m.fields);
  const lookups = useLookups(m, { page, filters, sort });
  const [openLookup, setOpenLookup] = useState<LookupRow | null>(null);
  const columns = useColumnChoice(columnChoiceKey(m.id), m.fields);
  const roomy = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });

  return (
    <Stack gap="md">
      <PageTitle>{m.title}</PageTitle>
      <SimulatedPricesNotice />
      <Group justify="space-between">
        <Group gap="sm">
          <UploadFileButton marketplace={m} />
          <DownloadCsvButton marketplace={m} filters={filters} sort={sort} />
          <ColumnChooser
            fields={m.fields}
            choice={columns.choice}
            onChange={columns.setChoice}
            isDefault={columns.isDefault}
            onReset={columns.reset}
          />
        </Group>
        <RefreshControl onRefresh={() => void lookups.refetch()} isFetching={lookups.isFetching} updatedAt={lookups.dataUpdatedAt} />
      </Group>
      <FilterBuilder fields={m.fields} value={filters} onApply={setFilters} />
      <PagedTable
        aria-label={m.title}
        columns={lookupColumns(shownFields(columns.choice, m.fields), sort, toggleSort, roomy ? PINNED_FIELDS : ISBN_ONLY)}
        rowKey={(r) => r.id}
        placeholderRows={m.placeholderRows}
        onRowClick={setOpenLookup}
        card={(r) => lookupCard(shownFields(columns.choice, m.fields), r)}
        paged={lookups}
        page={page}
        onChangePage={setPage}
      />
      <OffersDrawer marketplace={m} lookupId={openLookup?.id ?? null} row={openLookup ?? undefined} onClose={() => setOpenLookup(null)} />
    </Stack>
  );
}
