import { MARKETPLACES } from '@app/domain/marketplaces';
import { createFileRoute } from '@tanstack/react-router';
import { MarketplacePage } from '../../components/marketplace/MarketplacePage';
import { validatePageSearch } from '../../lib/paging';

export const Route = createFileRoute('/_layout/pallet-iq')({
  validateSearch: validatePageSearch,
  component: () => <MarketplacePage marketplace={MARKETPLACES.pallet_iq} />,
});
