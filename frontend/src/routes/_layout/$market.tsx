// Every marketplace's page, at /{slug} (docs/requirements.md, Marketplace pages): one route for all,
// the marketplace found by its slug in the registry (docs/marketplaces/adding.md). A path that is no
// marketplace's slug does not match, so it stays the 404 page, signed in or not.
import { MARKETPLACE_LIST, type MarketplaceInfo } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { createFileRoute } from '@tanstack/react-router';
import { useMemo } from 'react';
import { MarketplacePage } from '../../components/marketplace/MarketplacePage';
import { rawTableSearch, validateTableSearch } from '../../lib/table-search';

/** The marketplace whose page is at /{slug}, if any. */
export const marketplaceAt = (slug: string): MarketplaceInfo | undefined => MARKETPLACE_LIST.find((m) => m.slug === slug);

export const Route = createFileRoute('/_layout/$market')({
  // false: not this route (matching goes on, to the 404 page).
  params: { parse: ({ market }) => (marketplaceAt(market) ? { market } : false) },
  // The field table, and so the filters and sort allowed, is the marketplace's: checked in the page.
  validateSearch: rawTableSearch,
  component: MarketPage,
});

function MarketPage() {
  const { market } = Route.useParams();
  const marketplace = must(marketplaceAt(market), 'params.parse matched a marketplace');
  const raw = Route.useSearch();
  const search = useMemo(() => validateTableSearch(marketplace.fields)(raw), [marketplace, raw]);
  // Keyed: another marketplace's page starts afresh (its column choice, its open offers).
  return <MarketplacePage key={marketplace.id} marketplace={marketplace} search={search} />;
}
