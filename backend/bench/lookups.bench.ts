// 1M AbeBooks lookup rows on PostgreSQL:
// - a filtered (`contains` on isbn) and sorted page, p50/p95 through the API under concurrent load,
//   beside the same SQL run directly (target p95 ≤ 25 ms and ≤ 2× direct);
// - CSV export of all rows: rows/s beside COPY … TO STDOUT, and the process's peak memory as rows grow
//   (target ≥ 50 % of COPY's speed, memory flat).
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { openDatabase, type Database } from '../src/db/client.ts';
import { buildApp } from '../src/app.ts';
import { createContext } from '../src/create-context.ts';
import { productRoutes } from '../src/routes.ts';
import { buildLookupQuery, selectList } from '../src/lookups/query.ts';
import { loadConfig } from '../src/config.ts';
import { benchPostgres, mb, percentile, report, timed, now } from './lib.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROWS = 1_000_000;
const CONCURRENCY = 4;
const REQUESTS = 400;
const m = MARKETPLACES.abe_books;

export async function seed(db: Database, ownerId: string): Promise<void> {
  const { rows } = await db.query<{ id: number }>(`INSERT INTO jobs (name, input_filename, owner_id, abe_books) VALUES ('bench', 'bench.xlsx', $1, true) RETURNING id`, [ownerId]);
  // 1M rows in 10 statements; isbn = 978 + 10 digits; prices and conditions vary.
  for (let start = 0; start < ROWS; start += 100_000) {
    await db.query(
      `INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, input_filename, lookup_status, listing_price, total_listing_price, quantity,
         listing_condition, item_condition, seller_rating, vendor_price, vendor_id, listing_url, created_at, updated_at)
       SELECT $1, '978' || lpad(((g::bigint * 7919) % 10000000000)::text, 10, '0'), 'bench.xlsx',
         (ARRAY['completed','no_offers_available','failed','queued'])[1 + g % 4], (g % 5000) / 100.0, (g % 5000) / 100.0 + 4, 1 + g % 3,
         CASE WHEN g % 2 = 0 THEN 'NEW BOOK' ELSE 'NOT NEW BOOK' END, 'Very Good', 1 + g % 5, (g % 4000) / 100.0, (g % 977)::text,
         'https://www.abebooks.com/servlet/ListingDetails?bi=' || g, now() - (g || ' seconds')::interval, now()
       FROM generate_series($2::int, $3::int) AS g`,
      [rows[0].id, start + 1, start + 100_000],
    );
  }
  await db.query('ANALYZE abe_books_price_lookups');
}

async function loadTest(fn: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        const start = now();
        await fn();
        latencies.push(now() - start);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

async function peakRssDuring<T>(fn: () => Promise<T>): Promise<{ value: T; peak: number; base: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const value = await fn();
    return { value, peak, base };
  } finally {
    clearInterval(timer);
  }
}

export async function benchLookups(): Promise<void> {
  const pgDb = await benchPostgres();
  const db = await openDatabase({ url: pgDb.url, poolSize: CONCURRENCY * 2 + 2 });
  try {
    const config = loadConfig({ SECRET_KEY: 'b'.repeat(40), DATABASE_URL: pgDb.url, DATA_DIR: '/tmp/bench-unused', LOG_LEVEL: 'silent' });
    const ctx = await createContext(config, { db, log: () => {} });
    const admin = await ctx.users.create({ email: 'bench-admin@example.com', password: 'bench-password', is_superuser: true });
    const seeded = await timed(() => seed(db, admin.id));
    report({ name: 'lookups: seed 1M rows', value: `${(seeded.ms / 1000).toFixed(1)} s` });

    const app = await buildApp(ctx, { routes: productRoutes });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const token = await ctx.tokens.createAccessToken(admin.id, admin.password_changed_at);
    const filters = [{ field: 'isbn', operator: 'contains', value: '4242' }];
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    // Direct SQL: the same two statements the endpoint runs (page + count), in parallel as it does.
    const q = buildLookupQuery(m, admin, { filters: filters as never });
    const n = q.params.length;
    const direct = async () => {
      await Promise.all([
        db.query(`SELECT ${selectList(m)} ${q.fromWhere} ORDER BY ${q.orderBy} OFFSET $${n + 1} LIMIT $${n + 2}`, [...q.params, 0, 10]),
        db.query(`SELECT count(*)::int AS n ${q.fromWhere}`, q.params),
      ]);
    };
    const apiLoad = () =>
      new Promise<number[]>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', path.join(here, 'load-client.ts'), `${base}/api/v1/abe-books/price-lookups?skip=0&limit=10`, token, JSON.stringify({ filters }), String(CONCURRENCY), String(REQUESTS)],
          (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout))),
        ),
      );
    await loadTest(direct); // warm caches
    const directLat = await loadTest(direct);
    await apiLoad(); // warm the server's code paths
    const apiLat = await apiLoad();
    const [d50, d95, a50, a95] = [percentile(directLat, 50), percentile(directLat, 95), percentile(apiLat, 50), percentile(apiLat, 95)];
    report({ name: `lookups: direct SQL page+count (isbn contains, ${CONCURRENCY} concurrent)`, value: `p50 ${d50.toFixed(1)} ms, p95 ${d95.toFixed(1)} ms` });
    report({
      name: `lookups: API page (isbn contains, sorted, ${CONCURRENCY} concurrent)`,
      value: `p50 ${a50.toFixed(1)} ms, p95 ${a95.toFixed(1)} ms`,
      ratio: a95 / d95,
      target: 'p95 ≤ 25 ms and ≤ 2× direct',
      ok: a95 <= 25 && a95 <= 2 * d95,
    });

    // CSV export: COPY of the same columns and order first, then the API, over all rows and over a quarter.
    const all = buildLookupQuery(m, admin, { filters: [] });
    const copySql = `COPY (SELECT ${selectList(m, 'columns')} ${all.fromWhere} ORDER BY ${all.orderBy}) TO STDOUT WITH CSV HEADER`;
    const copy = await timed(() => execFileSync('psql', [pgDb.url, '-q', '-c', copySql], { maxBuffer: 1024 * 1024 * 1024 }).length);
    const copyRate = ROWS / (copy.ms / 1000);
    report({ name: 'csv: COPY … TO STDOUT (1M rows, psql)', value: `${(copy.ms / 1000).toFixed(2)} s, ${Math.round(copyRate).toLocaleString('en')} rows/s` });

    const exportRows = async (filter: unknown[]) => {
      const res = await fetch(`${base}/api/v1/abe-books/price-lookups/download-csv`, { method: 'POST', headers, body: JSON.stringify({ filters: filter }) });
      let lines = 0;
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const byte of value) if (byte === 10) lines++;
      }
      return lines - 1;
    };
    const quarter = await peakRssDuring(() => exportRows([{ field: 'id', operator: 'lte', value: String(ROWS / 4) }]));
    const full = await peakRssDuring(() => timed(() => exportRows([])));
    if (full.value.value !== ROWS) throw new Error(`export wrote ${full.value.value} rows, expected ${ROWS}`);
    const apiRate = ROWS / (full.value.ms / 1000);
    report({
      name: 'csv: API export (1M rows, streamed)',
      value: `${(full.value.ms / 1000).toFixed(2)} s, ${Math.round(apiRate).toLocaleString('en')} rows/s`,
      ratio: apiRate / copyRate,
      target: '≥ 0.50 of COPY',
      ok: apiRate >= 0.5 * copyRate,
    });
    const growth = (full.peak - full.base) / Math.max(1, quarter.peak - quarter.base);
    report({
      name: 'csv: peak memory over the baseline, 250k rows → 1M rows',
      value: `${mb(quarter.peak - quarter.base)} → ${mb(full.peak - full.base)} (process RSS peak ${mb(full.peak)})`,
      ratio: growth,
      target: 'flat (≤ 1.5× for 4× the rows)',
      ok: growth <= 1.5 || full.peak - full.base < 64 * 1024 * 1024,
    });
    await app.close();
  } finally {
    await db.close();
    await pgDb.cleanup();
  }
}
