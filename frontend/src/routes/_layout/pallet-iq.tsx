import { MARKETPLACES } from '@app/domain/marketplaces';
import { createFileRoute } from '@tanstack/react-router';
import { MarketplacePage } from '../../components/marketplace/MarketplacePage';
import { validateTableSearch } from '../../lib/table-search';

const marketplace = MARKETPLACES.pallet_iq;

export const Route = createFileRoute('/_layout/pallet-iq')({
  validateSearch: validateTableSearch(marketplace.fields),
  component: () => <MarketplacePage marketplace={marketplace} search={Route.useSearch()} />,
});
