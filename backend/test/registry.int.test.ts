// The marketplace registry is the single source: every entry of domain's list has its backend entry
// (adapter, sandbox format), its lookup table with every field, its job flag, and the API knows
// marketplaces only through the {market} enum of the registry's slugs.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETPLACE_IDS, MARKETPLACE_LIST, MARKETPLACE_SLUGS, dataFields } from '@app/domain/marketplaces';
import { createAdapters, marketplaceRegistry } from '../src/marketplaces/registry.ts';
import { settingsFromEnv } from '../src/marketplaces/env.ts';
import { SIMULATED_FORMATS } from '../src/marketplaces/sandbox.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('the marketplace registry', () => {
  it('names each marketplace once: ids, slugs, tables and CSV prefixes are unique', () => {
    for (const key of ['id', 'slug', 'table', 'csvPrefix'] as const) {
      expect(new Set(MARKETPLACE_LIST.map((m) => m[key])).size, key).toBe(MARKETPLACE_LIST.length);
    }
  });

  it('every marketplace has its backend entry, an adapter and a sandbox format, and nothing else does', () => {
    expect(sorted(Object.keys(marketplaceRegistry))).toEqual(sorted(MARKETPLACE_IDS));
    expect(sorted(Object.keys(SIMULATED_FORMATS))).toEqual(sorted(MARKETPLACE_IDS));
    const adapters = createAdapters(settingsFromEnv({}, { sandboxUrl: 'http://127.0.0.1:1' }));
    for (const id of MARKETPLACE_IDS) expect(adapters[id].id).toBe(id);
  });

  it('every marketplace has the bookkeeping fields and data fields of its own', () => {
    for (const m of MARKETPLACE_LIST) {
      const names = m.fields.map((f) => f.name);
      expect(names, m.id).toEqual(
        expect.arrayContaining(['id', 'isbn', 'lookup_status', 'isbn_lookup_job_id', 'created_at', 'updated_at']),
      );
      expect(new Set(names).size, m.id).toBe(names.length);
      expect(dataFields(m).length, m.id).toBeGreaterThan(0);
    }
  });
});

// Engine-neutral (ONE_ENGINE says why): the same statements through the query builder on both engines.
describe.each(ONE_ENGINE)('the registry against the migrated database and the API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('every marketplace has a lookup table holding each of its fields, and a flag on jobs', async () => {
    const { rows } = await t.ctx.db.execute<{ table_name: string; column_name: string }>(
      sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`,
    );
    const columnsOf = (table: string) => rows.filter((r) => r.table_name === table).map((r) => r.column_name);
    for (const m of MARKETPLACE_LIST) expect(columnsOf(m.table), m.table).toEqual(expect.arrayContaining(m.fields.map((f) => f.name)));
    expect(columnsOf('jobs')).toEqual(expect.arrayContaining([...MARKETPLACE_IDS]));
  });

  it('the OpenAPI document knows marketplaces only as the {market} enum of the registry’s slugs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.components.schemas.MarketSlug.enum).toEqual([...MARKETPLACE_SLUGS]);
    const paths = Object.keys(doc.paths);
    for (const slug of MARKETPLACE_SLUGS)
      expect(
        paths.filter((p) => p.includes(`/${slug}/`)),
        slug,
      ).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/{market}/upload-file',
        '/api/v1/{market}/price-lookups',
        '/api/v1/{market}/price-lookups/download-csv',
      ]),
    );
    // A job has one progress object per marketplace, under its id (docs/requirements.md, The API the
    // screens call).
    expect(doc.components.schemas.JobPublic.required).toEqual(expect.arrayContaining([...MARKETPLACE_IDS]));
    for (const id of MARKETPLACE_IDS)
      expect(doc.components.schemas.JobPublic.properties[id], id).toEqual({ $ref: '#/components/schemas/SourceProgress' });
  });
});
