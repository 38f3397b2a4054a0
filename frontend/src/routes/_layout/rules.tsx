import { createFileRoute } from '@tanstack/react-router';
import { RulesPage } from '../../components/rules/RulesPage';
import { validatePageSearch } from '../../lib/paging';

export const Route = createFileRoute('/_layout/rules')({
  validateSearch: validatePageSearch,
  component: () => <RulesPage page={Route.useSearch().page} />,
});
