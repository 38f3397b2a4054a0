// The users list (superusers only): add, edit and delete users; links to the audit trail and system status.
import { PAGE_SIZE } from '@app/domain/jobs';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { IconHeartbeat, IconHistory } from '@tabler/icons-react';
import { readUsersOptions } from '../../client/@tanstack/react-query.gen';
import type { UserPublic } from '../../client/types.gen';
import { AddUser } from './AddUser';
import { UserActions } from './UserActions';
import type { DataColumn } from '../common/DataTable';
import { OrNA } from '../common/EmptyValue';
import { PageTitle } from '../common/PageTitle';
import { PagedTable } from '../common/PagedTable';
import { StatusDot } from '../common/StatusDot';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { usePageParam } from '../../hooks/usePageParam';
import { usePagedQuery } from '../../hooks/usePagedQuery';

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

export function UsersPage({ page: current }: { page: number }) {
  const [page, setPage] = usePageParam(current);
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
