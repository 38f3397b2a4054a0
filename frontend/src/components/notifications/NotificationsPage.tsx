// The notifications page (/notifications): what the user's watches said, newest first, 20 a page.
// Unread ones are marked (a dot, a "New" badge, bolder text); opening one's book marks it read, as
// does its own "Mark read", and "Mark all read" clears the bell. Cards at every width, with
// full-size buttons, so it reads and works one-handed on a phone.
import { Badge, Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconBook, IconCheck, IconChecks } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { NotificationPublic } from '../../client/types.gen';
import { usePageParam } from '../../hooks/usePageParam';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import { formatDateTime } from '../../lib/format';
import { WATCH_TEXT } from '../../lib/messages';
import { PageTitle } from '../common/PageTitle';
import { PaginationFooter } from '../common/PaginationFooter';
import { RowCards } from '../common/RowCards';
import { JobLink } from '../jobs/JobLink';
import { markRead, notificationsChanged, notificationsPaged, unreadCountQuery } from '../watches/queries';

export function NotificationsPage({ page: pageParam }: { page: number }) {
  const [page, setPage] = usePageParam(pageParam);
  const list = usePagedQuery({ ...notificationsPaged, page });
  const unread = useQuery(unreadCountQuery).data?.unreadCount ?? 0;
  const queryClient = useQueryClient();
  // Options, not mutate()'s callbacks: they run even when opening a book has left this page.
  const read = useMutation({ mutationFn: markRead, onSuccess: (count) => notificationsChanged(queryClient, count) });

  return (
    <Stack gap="md">
      <PageTitle>Notifications</PageTitle>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" data-testid="unread-summary">
          {unread === 0 ? 'All read' : `${unread} unread`}
        </Text>
        <Button
          variant="default"
          leftSection={<IconChecks size={16} />}
          disabled={unread === 0}
          loading={read.isPending && read.variables === undefined}
          onClick={() => read.mutate(undefined)}
        >
          Mark all read
        </Button>
      </Group>
      <RowCards
        aria-label="Notifications"
        rows={list.rows}
        rowKey={(n) => n.id}
        isPending={list.isPending}
        isPlaceholderData={list.isPlaceholderData}
        empty={WATCH_TEXT.noNotifications}
        card={(n) => <NotificationCard n={n} onRead={() => read.mutate([n.id])} />}
      />
      <PaginationFooter {...list} page={page} onChangePage={setPage} />
    </Stack>
  );
}

function NotificationCard({ n, onRead }: { n: NotificationPublic; onRead: () => void }) {
  const unread = n.read_at === null;
  return (
    <Card
      withBorder
      padding="sm"
      data-testid="notification"
      data-unread={unread}
      aria-label={unread ? 'Unread notification' : 'Notification'}
    >
      <Group gap="sm" align="flex-start" wrap="nowrap">
        {/* The dot is seen; the badge says it to everyone. */}
        <Box
          aria-hidden
          mt={6}
          w={10}
          h={10}
          style={{ flex: 'none', borderRadius: '50%', background: unread ? 'var(--mantine-color-blue-filled)' : 'transparent' }}
        />
        <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs">
            {unread && (
              <Badge size="sm" variant="light">
                New
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              {formatDateTime(n.created_at)}
            </Text>
          </Group>
          <Text size="sm" fw={unread ? 600 : 400} style={{ overflowWrap: 'anywhere' }}>
            {n.message}
          </Text>
          <Group gap="xs">
            <Button
              size="sm"
              variant="light"
              leftSection={<IconBook size={16} />}
              renderRoot={(props) => <Link {...props} to="/books/$isbn" params={{ isbn: n.isbn }} />}
              onClick={() => unread && onRead()}
            >
              Open book
            </Button>
            {unread && (
              <Button size="sm" variant="default" leftSection={<IconCheck size={16} />} onClick={onRead}>
                Mark read
              </Button>
            )}
            {n.job_id !== null && <JobLink id={n.job_id}>Job {n.job_id}</JobLink>}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
