// The header's bell: the unread notifications count as a badge, kept current by the live stream's
// notifications event (useLiveJobEvents), read again on each reconnect, and polled only while the
// stream is down. It opens the notifications page.
import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useLiveFallbackInterval } from '../../hooks/useLiveJobEvents';
import { bellLabel, unreadBadge } from '../../lib/watches';
import { unreadCountQuery } from '../watches/queries';

/** How often the count is read while live updates are down. */
const FALLBACK_POLL_MS = 30_000;

export function NotificationBell() {
  const unread = useQuery({ ...unreadCountQuery, refetchInterval: useLiveFallbackInterval(FALLBACK_POLL_MS) });
  const n = unread.data?.unreadCount ?? 0;
  const badge = unreadBadge(n);
  return (
    <Indicator label={badge} disabled={badge === ''} size={18} color="red" offset={4} data-testid="bell-count" data-count={n}>
      <ActionIcon component={Link} to="/notifications" variant="subtle" color="gray" size="lg" aria-label={bellLabel(n)}>
        <IconBell size={20} stroke={1.5} />
      </ActionIcon>
    </Indicator>
  );
}
