// What the user's watches said: reached from the header's bell.
import { createFileRoute } from '@tanstack/react-router';
import { NotificationsPage } from '../../components/notifications/NotificationsPage';
import { validatePageSearch } from '../../lib/paging';

export const Route = createFileRoute('/_layout/notifications')({
  validateSearch: validatePageSearch,
  component: () => <NotificationsPage page={Route.useSearch().page} />,
});
