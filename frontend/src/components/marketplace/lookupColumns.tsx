// The columns of a marketplace's table: its field table's `column` fields, in order, with their
// labels; sortable ones sort on header click.
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import type { LookupRow } from '../../lib/marketplace-api';
import { ariaSort, type SortState } from '../../lib/sort';
import type { DataColumn } from '../common/DataTable';
import { SortableHeader } from '../common/SortableHeader';
import { LookupValue } from './LookupValue';
import { RetryHint } from './RetryHint';

export function lookupColumns(m: MarketplaceInfo, sort: SortState, onSort: (column: string) => void): DataColumn<LookupRow>[] {
  return m.fields
    .filter((f) => f.column)
    .map((f) => ({
      key: f.name,
      header: f.sortable ? <SortableHeader label={f.label} column={f.name} sort={sort} onSort={onSort} /> : f.label,
      sort: f.sortable ? ariaSort(sort, f.name) : undefined,
      align: f.format === 'money' ? ('right' as const) : undefined,
      sticky: f.name === 'isbn',
      render: (row) =>
        f.name === 'lookup_status' ? (
          <>
            <LookupValue field={f} row={row} />
            <RetryHint row={row} />
          </>
        ) : (
          <LookupValue field={f} row={row} />
        ),
    }));
}
