// CSV exports on the embedded database (PGlite), which pages them (db/csv-exporter.ts): the time of
// a 150k-row comparison CSV and a 150k-row lookups CSV (one marketplace of the same job), each in
// the list's default order and in one on a computed or unindexed column, and the worst wait of a
// one-row query run beside the export meanwhile: how long one page holds every other request.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../src/db/client.ts';
import { buildApp } from '../src/app.ts';
import { productRoutes } from '../src/routes.ts';
import { benchContext } from './context.ts';
import { ISBNS, seed } from './comparison.bench.ts';
import { now, report, timed } from './lib.ts';

/** The worst wait of a one-row query polled back to back while `task` runs. */
async function worstWaitDuring<T>(db: Db, task: () => Promise<T>): Promise<{ value: T; worst: number; ms: number }> {
  let done = false;
  let worst = 0;
  const poll = (async () => {
    while (!done) {
      const start = now();
      await db.execute(sql`SELECT 1`);
      worst = Math.max(worst, now() - start);
      await nextTurn();
    }
  })();
  const run = await timed(task);
  done = true;
  await poll;
  return { ...run, worst };
}

export async function benchExports(): Promise<void> {
  const database = await openDatabase({});
  const db = database.db;
  try {
    const { ctx, admin } = await benchContext(database);
    const seeded = await timed(() => seed(db, admin.id));
    report({ name: `exports (pglite): seed ${ISBNS / 1000}k ISBNs × 4 marketplaces`, value: `${(seeded.ms / 1000).toFixed(1)} s` });
    const jobId = seeded.value;
    const app = await buildApp(ctx, { routes: productRoutes });
    await app.ready();
    const headers = { authorization: `Bearer ${await ctx.tokens.createAccessToken(admin)}` };
    const exports: [string, string, Record<string, unknown>][] = [
      ['comparison CSV, upload order', `/api/v1/jobs/${jobId}/comparison/download-csv`, {}],
      ['comparison CSV, sorted by spread', `/api/v1/jobs/${jobId}/comparison/download-csv`, { sort_by: 'spread', sort_direction: 'desc' }],
      ['Alibris lookups CSV, newest first', '/api/v1/alibris/price-lookups/download-csv', {}],
      ['Alibris lookups CSV, sorted by price', '/api/v1/alibris/price-lookups/download-csv', { sort_by: 'price', sort_direction: 'desc' }],
    ];
    for (const [what, url, sort] of exports) {
      const run = await worstWaitDuring(db, async () => {
        const res = await app.inject({ method: 'POST', url, headers, payload: { filters: [], ...sort } });
        if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        return res.body.split('\n').length - 2;
      });
      if (run.value !== ISBNS) throw new Error(`${what}: ${run.value} rows, expected ${ISBNS}`);
      report({
        name: `exports (pglite): ${what}, ${ISBNS / 1000}k rows`,
        value: `${(run.ms / 1000).toFixed(2)} s; a query beside it waited at worst ${run.worst.toFixed(0)} ms`,
        target: '≤ 3 s',
        ok: run.ms <= 3_000,
      });
    }
    await app.close();
  } finally {
    await database.close();
  }
}
