// Every marketplace of the registry has its page route, its sidebar entry and its slug in the API's
// {market} enum; no page or slug is left over from a marketplace that is gone.
import { readFileSync } from 'node:fs';
import { MARKETPLACE_LIST, MARKETPLACE_SLUGS } from '@app/domain/marketplaces';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { NAV_ENTRIES } from '../components/layout/nav';
import { createAppRouter } from '../router';
import { marketplaceAt } from '../components/marketplace/MarketplacePageAt';

const read = (rel: string) => readFileSync(new URL(rel, import.meta.url), 'utf8');
const router = createAppRouter(new QueryClient());
/** The deepest route the app's router matches for a path, and its params. */
function matched(path: string) {
  const last = router.matchRoutes(path, {}).at(-1);
  return { routeId: last?.routeId, params: last?.params };
}

describe('marketplace pages follow the registry', () => {
  it('every marketplace’s path, and only those, is served by the one marketplace page for that marketplace', () => {
    for (const m of MARKETPLACE_LIST) {
      expect(matched(`/${m.slug}`), m.slug).toEqual({ routeId: '/_layout/$market', params: { market: m.slug } });
      expect(marketplaceAt(m.slug)).toBe(m);
    }
    // Not a marketplace: the 404 page (no route), not a marketplace page that is not there.
    expect(matched('/no-such-marketplace').routeId).not.toBe('/_layout/$market');
    // The other pages keep their routes.
    expect(matched('/jobs').routeId).toBe('/_layout/jobs');
    expect(matched('/fees').routeId).toBe('/_layout/fees');
  });

  it('the sidebar lists every marketplace under Dashboard, in registry order', () => {
    const dashboard = NAV_ENTRIES.find((e) => e.to === '/')!;
    expect(dashboard.children).toEqual(MARKETPLACE_LIST.map((m) => ({ label: m.label, to: `/${m.slug}` })));
  });

  it('the client is generated from an API whose {market} enum is the registry’s slugs', () => {
    const doc = JSON.parse(read('../../openapi.json'));
    expect(doc.components.schemas.MarketSlug.enum).toEqual([...MARKETPLACE_SLUGS]);
  });
});
