import { MARKETPLACES } from '@app/domain/marketplaces';
import { createFileRoute } from '@tanstack/react-router';
import { MarketplacePage } from '../../components/marketplace/MarketplacePage';
import { validateTableSearch } from '../../lib/table-search';

const marketplace = MARKETPLACES.alibris;

export const Route = createFileRoute('/_layout/alibris')({
  validateSearch: validateTableSearch(marketplace.fields),
  component: () => <MarketplacePage marketplace={marketplace} search={Route.useSearch()} />,
});
