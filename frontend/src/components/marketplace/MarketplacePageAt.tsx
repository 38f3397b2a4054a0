// The marketplace page at /{slug}: the marketplace found by its slug in the registry
// (docs/marketplaces/adding.md), its search checked against its own field table.
import { MARKETPLACE_LIST, type MarketplaceInfo } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { useMemo } from 'react';
import { validateTableSearch } from '../../lib/table-search';
import { MarketplacePage } from './MarketplacePage';

/** The marketplace whose page is at /{slug}, if any. */
export const marketplaceAt = (slug: string): MarketplaceInfo | undefined => MARKETPLACE_LIST.find((m) => m.slug === slug);

/** `market`: a slug the route matched; `raw`: its search as the URL has it. */
export function MarketplacePageAt({ market, raw }: { market: string; raw: Record<string, unknown> }) {
  const marketplace = must(marketplaceAt(market), 'the route matches only a marketplace’s slug');
  // The field table, and so the filters and sort allowed, is the marketplace's.
  const search = useMemo(() => validateTableSearch(marketplace.fields)(raw), [marketplace, raw]);
  // Keyed: another marketplace's page starts afresh (its column choice, its open offers).
  return <MarketplacePage key={marketplace.id} marketplace={marketplace} search={search} />;
}
