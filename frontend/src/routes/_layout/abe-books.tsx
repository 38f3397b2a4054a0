import { MARKETPLACES } from '@app/domain/marketplaces';
import { createFileRoute } from '@tanstack/react-router';
import { MarketplacePage } from '../../components/marketplace/MarketplacePage';
import { validateTableSearch } from '../../lib/table-search';

const marketplace = MARKETPLACES.abe_books;

export const Route = createFileRoute('/_layout/abe-books')({
  validateSearch: validateTableSearch(marketplace.fields),
  component: () => <MarketplacePage marketplace={marketplace} search={Route.useSearch()} />,
});
