// The items list: add, edit and delete items.
import { PAGE_SIZE } from '@app/domain/jobs';
import { Group, Stack, Text } from '@mantine/core';
import { readItemsOptions } from '../../client/@tanstack/react-query.gen';
import type { ItemPublic } from '../../client/types.gen';
import type { DataColumn } from '../common/DataTable';
import { OrNA } from '../common/EmptyValue';
import { PageTitle } from '../common/PageTitle';
import { PagedTable } from '../common/PagedTable';
import { AddItem } from './AddItem';
import { ItemActions } from './ItemActions';
import { usePageParam } from '../../hooks/usePageParam';
import { usePagedQuery } from '../../hooks/usePagedQuery';

const COLUMNS: DataColumn<ItemPublic>[] = [
  // A short id keeps the column narrow; the whole id is on hover and is what copying takes
  // (the rest of the text is in the DOM, hidden from view but not from the clipboard).
  {
    key: 'id',
    header: 'ID',
    render: (i) => (
      <Text span size="sm" ff="monospace" title={String(i.id)} data-testid="item-id" style={{ whiteSpace: 'nowrap' }}>
        {String(i.id).slice(0, 8)}
        <span style={{ fontSize: 0 }}>{String(i.id).slice(8)}</span>
      </Text>
    ),
  },
  { key: 'title', header: 'Title', render: (i) => i.title },
  { key: 'description', header: 'Description', render: (i) => <OrNA value={i.description} /> },
  { key: 'actions', header: 'Actions', render: (i) => <ItemActions item={i} />, width: 80 },
];

const EMPTY = (
  <Stack align="center" gap={4} py="lg">
    <Text fw={600}>You don't have any items yet</Text>
    <Text c="dimmed" size="sm">
      Add a new item to get started
    </Text>
  </Stack>
);

export function ItemsPage({ page: current }: { page: number }) {
  const [page, setPage] = usePageParam(current);
  const items = usePagedQuery({
    pageQuery: ({ skip, limit }) => readItemsOptions({ query: { skip, limit } }),
    page,
    pageSize: PAGE_SIZE.items,
  });

  return (
    <Stack gap="md">
      <PageTitle>Items Management</PageTitle>
      <Group>
        <AddItem />
      </Group>
      <PagedTable
        aria-label="Items"
        columns={COLUMNS}
        rowKey={(i) => i.id}
        empty={EMPTY}
        paged={items}
        page={page}
        onChangePage={setPage}
      />
    </Stack>
  );
}
