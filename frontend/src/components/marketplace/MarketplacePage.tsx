// One marketplace's price-lookup page. For now only its title (spec §2); the filter builder,
// table, upload and CSV download are a later task and will be added here.
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { PageTitle } from '../common/PageTitle';

export function MarketplacePage({ marketplace }: { marketplace: MarketplaceInfo }) {
  return <PageTitle>{marketplace.title}</PageTitle>;
}
