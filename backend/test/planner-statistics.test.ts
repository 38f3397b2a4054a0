// A big job refreshes the planner's statistics of the tables it grew (db/planner-statistics.ts): the
// queue's claim and the worker's write-back were planned as if a just-filled table were empty
// (measured at 100k ISBNs: ~250 ms and ~350 ms a statement instead of 4 and 30), and PGlite has no
// autovacuum to catch up. A small job on a big table leaves them alone.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { ADMIN, bearer, login, testAppPerSuite } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';

describe.each(ENGINES)('planner statistics after a job on %s', (engine) => {
  const t = testAppPerSuite(engine);
  let token: string;
  beforeAll(async () => {
    token = await login(t.app, ADMIN.email, ADMIN.password);
  });

  const paste = async (isbns: readonly string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(token),
      payload: { name: 'stats', biblio: true, isbns: isbns.join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** What the planner believes each table holds (-1: never analyzed). */
  const estimates = async () => {
    const { rows } = await t.ctx.db.execute<{ relname: string; reltuples: number }>(
      sql`SELECT relname, reltuples::float8 AS reltuples FROM pg_class
          WHERE relname IN ('biblio_price_lookups', 'comparison_rows', 'alibris_price_lookups') AND relnamespace = current_schema()::regnamespace`,
    );
    return Object.fromEntries(rows.map((r) => [r.relname, Number(r.reltuples)]));
  };

  it('analyzes the tables a big job grew, and only those', async () => {
    expect(await estimates()).toEqual({ biblio_price_lookups: -1, comparison_rows: -1, alibris_price_lookups: -1 });
    await paste(sampleIsbns(1_500, 610_000));
    expect(await estimates()).toEqual({ biblio_price_lookups: 1_500, comparison_rows: 1_500, alibris_price_lookups: -1 });
  });

  it('leaves them alone after a job under a tenth of their size', async () => {
    await paste(sampleIsbns(100, 620_000));
    expect(await estimates()).toEqual({ biblio_price_lookups: 1_500, comparison_rows: 1_500, alibris_price_lookups: -1 });
  });
});
