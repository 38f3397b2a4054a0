// A marketplace's page: TanStack file routes need one file per path; everything else comes from
// the registry entry with this slug (see docs/marketplaces/adding.md).
import { marketplaceOfSlug } from '@app/domain/marketplaces';
import { createFileRoute } from '@tanstack/react-router';
import { MarketplacePage } from '../../components/marketplace/MarketplacePage';
import { validateTableSearch } from '../../lib/table-search';

const marketplace = marketplaceOfSlug('abe-books');

export const Route = createFileRoute('/_layout/abe-books')({
  validateSearch: validateTableSearch(marketplace.fields),
  component: () => <MarketplacePage marketplace={marketplace} search={Route.useSearch()} />,
});
