import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { HomePage } from '../../components/jobs/HomePage';
import { validatePageSearch } from '../../lib/paging';

export const Route = createFileRoute('/_layout/')({
  validateSearch: validatePageSearch,
  // Page 1 is the default: logging in or following a link to / stays on / (no ?page=1).
  search: { middlewares: [stripSearchParams({ page: 1 })] },
  component: () => <HomePage page={Route.useSearch().page} />,
});
