// Every marketplace of the registry has its page route, its sidebar entry and its slug in the API's
// {market} enum; no page or slug is left over from a marketplace that is gone.
import { readFileSync, readdirSync } from 'node:fs';
import { MARKETPLACE_LIST, MARKETPLACE_SLUGS } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import { NAV_ENTRIES } from '../components/layout/nav';

const read = (rel: string) => readFileSync(new URL(rel, import.meta.url), 'utf8');
const OTHER_PAGES = [
  'admin',
  'admin_.audit',
  'admin_.status',
  'books.$isbn',
  'fees',
  'index',
  'items',
  'jobs',
  'jobs_.$id',
  'rules',
  'scan',
  'settings',
];

describe('marketplace pages follow the registry', () => {
  it('one route file per slug, registered in the route tree, serving that slug’s marketplace', () => {
    const pages = readdirSync(new URL('./_layout/', import.meta.url)).map((f) => f.replace(/\.tsx$/, ''));
    expect(pages.filter((p) => !OTHER_PAGES.includes(p)).sort()).toEqual([...MARKETPLACE_SLUGS].sort());
    const tree = read('../routeTree.gen.ts');
    for (const slug of MARKETPLACE_SLUGS) {
      const source = read(`./_layout/${slug}.tsx`);
      expect(source).toContain(`createFileRoute('/_layout/${slug}')`);
      expect(source).toContain(`marketplaceOfSlug('${slug}')`);
      expect(tree).toContain(`path: '/${slug}'`);
    }
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
