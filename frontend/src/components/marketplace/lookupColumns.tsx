// The columns of a marketplace's table: the fields the user shows (by default the field table's
// `column` fields), in their order, with their labels; sortable ones sort on header click.
import type { FieldDef } from '@app/domain/fields';
import { Box } from '@mantine/core';
import type { LookupRow } from './marketplace-api';
import { ariaSort, type SortState } from '../../lib/sort';
import type { DataColumn } from '../common/DataTable';
import { SortableHeader } from '../common/SortableHeader';
import { BookCard } from '../book/BookCard';
import { LookupValue } from './LookupValue';
import { RetryHint } from './RetryHint';
import { ReusedHint } from './ReusedHint';

/** Kept in view while scrolling sideways: what a row is (ISBN) and, where there is one, what book (title). */
export const PINNED_FIELDS = ['isbn', 'title'] as const;

export function lookupColumns(
  shown: readonly FieldDef[],
  sort: SortState,
  onSort: (column: string) => void,
  pinned: readonly string[] = PINNED_FIELDS,
): DataColumn<LookupRow>[] {
  return shown.map((f) => ({
    key: f.name,
    header: f.sortable ? <SortableHeader label={f.label} column={f.name} sort={sort} onSort={onSort} /> : f.label,
    sort: f.sortable ? ariaSort(sort, f.name) : undefined,
    align: f.format === 'money' ? ('right' as const) : undefined,
    sticky: pinned.includes(f.name),
    render: (row) =>
      f.name === 'lookup_status' ? (
        <>
          <LookupValue field={f} row={row} />
          <RetryHint row={row} />
          <ReusedHint row={row} />
        </>
      ) : f.name === 'title' ? (
        // Titles wrap within a bounded width, so a pinned title leaves room for the other columns.
        <Box miw="8rem" maw="16rem">
          <LookupValue field={f} row={row} />
        </Box>
      ) : (
        <LookupValue field={f} row={row} />
      ),
  }));
}

/** Lines a phone's card shows besides the ISBN, title and status: the first shown columns. */
const CARD_LINES = 4;

/**
 * One lookup on a phone: its ISBN, title and status, then the first columns the page shows (the
 * user's choice, else the required ones) as "label value" lines; a tap opens the book's page.
 */
export function lookupCard(shown: readonly FieldDef[], row: LookupRow) {
  const status = shown.find((f) => f.name === 'lookup_status');
  const lines = shown
    // Links would nest inside the card's own link; the ISBN and title head the card.
    .filter((f) => !['isbn', 'title', 'lookup_status'].includes(f.name) && !f.link)
    .slice(0, CARD_LINES)
    .map((f) => ({ label: f.label, value: <LookupValue field={f} row={row} /> }));
  return (
    <BookCard
      isbn={String(row.isbn)}
      title={typeof row.title === 'string' ? row.title : undefined}
      badge={status && <LookupValue field={status} row={row} />}
      lines={lines}
    />
  );
}
