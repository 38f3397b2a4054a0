// Every marketplace's page, at /{slug} (docs/requirements.md, Marketplace pages): one route for all.
// A path that is no marketplace's slug does not match, so it stays the 404 page, signed in or not.
import { createFileRoute } from '@tanstack/react-router';
import { MarketplacePageAt, marketplaceAt } from '../../components/marketplace/MarketplacePageAt';
import { rawTableSearch } from '../../lib/table-search';

export const Route = createFileRoute('/_layout/$market')({
  // false: not this route (matching goes on, to the 404 page).
  params: { parse: ({ market }) => (marketplaceAt(market) ? { market } : false) },
  // The field table, and so the filters and sort allowed, is the marketplace's: checked in the page.
  validateSearch: rawTableSearch,
  component: () => <MarketplacePageAt market={Route.useParams().market} raw={Route.useSearch()} />,
});
