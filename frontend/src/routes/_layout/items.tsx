import { createFileRoute } from '@tanstack/react-router';
import { ItemsPage } from '../../components/items/ItemsPage';
import { validatePageSearch } from '../../lib/paging';

export const Route = createFileRoute('/_layout/items')({
  validateSearch: validatePageSearch,
  component: () => <ItemsPage page={Route.useSearch().page} />,
});
