import { PAGE_SIZE } from '@app/domain/jobs';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { Link, createFileRoute } from '@tanstack/react-router';
import { IconHeartbeat, IconHistory } from '@tabler/icons-react';
import { readUsersOptions } from '../../client/@tanstack/react-query.gen';
import type { UserPublic } from '../../client/types.gen';
import { AddUser } from '../../components/admin/AddUser';
import { UserActions } from '../../components/admin/UserActions';
import type { DataColumn } from '../../components/common/DataTable';
import { OrNA } from '../../components/common/EmptyValue';
import { PageTitle } from '../../components/common/PageTitle';
import { PagedTable } from '../../components/common/PagedTable';
import { StatusDot } from '../../components/common/StatusDot';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { usePageParam } from '../../hooks/usePageParam';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import { validatePageSearch } from '../../lib/paging';
import { superusersOnly } from '../../lib/superusers-only';

export const Route = createFileRoute('/_layout/admin')({
  validateSearch: validatePageSearch,
  beforeLoad: superusersOnly,
  component: Admin,
});

function columns(me: UserPublic | undefined): DataColumn<UserPublic>[] {
  return [
    {
      key: 'full_name',
      header: 'Full name',
      render: (u) => (
        <Group gap="xs" wrap="nowrap">
          <OrNA value={u.full_name} />
          {u.id === me?.id && (
            <Badge size="sm" variant="light" color="gray">
              You
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'email', header: 'Email', render: (u) => <Text size="sm">{u.email}</Text> },
    { key: 'role', header: 'Role', render: (u) => (u.is_superuser ? 'Superuser' : u.decisions_only ? 'Decisions only' : 'User') },
    { key: 'status', header: 'Status', render: (u) => <StatusDot active={u.is_active} /> },
    { key: 'actions', header: 'Actions', render: (u) => <UserActions user={u} disabled={u.id === me?.id} />, width: 80 },
  ];
}

function Admin() {
  const [page, setPage] = usePageParam(Route.useSearch().page);
  const { data: me } = useCurrentUser();
  const users = usePagedQuery({
    pageQuery: ({ skip, limit }) => readUsersOptions({ query: { skip, limit } }),
    page,
    pageSize: PAGE_SIZE.users,
  });

  return (
    <Stack gap="md">
      <PageTitle>Users Management</PageTitle>
      <Group justify="space-between">
        <AddUser />
        <Group gap="xs">
          <Button component={Link} to="/admin/audit" variant="default" leftSection={<IconHistory size={16} />}>
            Audit trail
          </Button>
          <Button component={Link} to="/admin/status" variant="default" leftSection={<IconHeartbeat size={16} />}>
            System status
          </Button>
        </Group>
      </Group>
      <PagedTable aria-label="Users" columns={columns(me)} rowKey={(u) => u.id} paged={users} page={page} onChangePage={setPage} />
    </Stack>
  );
}
