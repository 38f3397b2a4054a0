// One sandbox server stands in for every marketplace, each under its own slug.
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';

/** The base URL an adapter uses to reach the sandbox's copy of a marketplace. */
export function sandboxBaseUrl(sandboxUrl: string, id: MarketplaceId): string {
  return `${sandboxUrl.replace(/\/+$/, '')}/${MARKETPLACES[id].slug}`;
}
