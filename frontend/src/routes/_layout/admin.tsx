import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '../../components/admin/UsersPage';
import { validatePageSearch } from '../../lib/paging';
import { superusersOnly } from '../../lib/superusers-only';

export const Route = createFileRoute('/_layout/admin')({
  validateSearch: validatePageSearch,
  beforeLoad: superusersOnly,
  component: () => <UsersPage page={Route.useSearch().page} />,
});
