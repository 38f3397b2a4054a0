// A dealer's volume on PostgreSQL (issue 16): one job of BENCH_SCALE_ISBNS ISBNs (default 1M) × 4
// marketplaces, priced by 2 worker processes against the sandbox process. Every figure is printed
// as a ratio against the limit the same run measured:
// - ingest (parse + store the .csv) beside a bare INSERT of the same rows (lookups and stored comparison)
//   into tables with the same indexes;
// - pricing over a fixed window (BENCH_SCALE_WINDOW_S) beside the configured rates (shared by the workers);
// - the job page's comparison and the lookups page, p95 at 10 and 50 clients, beside their SQL run directly;
// - CSV export of the job's lookups and of its comparison beside COPY of the same query (psql), and
//   the API process's memory during it;
// - the peak memory (VmHWM) of every process: the API, each worker, the sandbox.
// The API runs as `npm start` runs it (src/main.ts, its own process, default pool and limits, no
// worker of its own), so its memory is its own: the bench's process holds the 1M-row file, the
// ingest and the direct SQL's load.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { param, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { MARKETPLACES, byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';
import { openDatabase, type Db } from '../src/db/client.ts';
import { comparisonRows } from '../src/db/schema.ts';
import type { CsvExporter, CsvQuery } from '../src/db/csv-exporter.ts';
import { readUploadedFile, storeJob } from '../src/jobs/ingest.ts';
import { findVisibleJob } from '../src/jobs/repository.ts';
import { comparisonCsv, listComparison } from '../src/comparison/repository.ts';
import { feeSchedulesInForce } from '../src/fees/repository.ts';
import { listLookups, lookupsCsv } from '../src/lookups/repository.ts';
import { marketplaceEnvNames } from '../src/marketplaces/env.ts';
import { orderBySql } from '../src/lib/filter-sql.ts';
import { uploadLimits } from '../src/uploads/limits.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { benchPostgres, loadInProcess, mb, peakRssDuring, percentile, report, runLoadClient, startSourceProcess, timed } from './lib.ts';
import { benchContext, staffTokens } from './context.ts';
import { startSandboxProcess } from './worker.bench.ts';
import { peakRssOf } from './proc-memory.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const ISBNS = Number(process.env.BENCH_SCALE_ISBNS ?? 1_000_000);
const RATE = Number(process.env.BENCH_SCALE_RATE ?? 25);
const WINDOW_S = Number(process.env.BENCH_SCALE_WINDOW_S ?? 30);
const WARMUP_S = 5;
// Requests measured per page and load: a page answers in a few ms, so 300 put the p95 on 15 samples,
// and two runs of the same tree differed by 0.2 in the ratio; each run is warmed with WARM first.
const REQUESTS = Number(process.env.BENCH_SCALE_REQUESTS ?? 2000);
const WARM = 300;
const LOADS = [10, 50];
const SOURCES: MarketplaceId[] = ['abe_books', 'biblio', 'alibris', 'pallet_iq'];
const WORKERS = 2;
/** Shared with the API process, so the tokens the bench signs are the API's. */
const SECRET_KEY = 's'.repeat(40);

/** The API process (src/main.ts) on the bench's database, without a worker; resolves once it listens. */
async function startApiProcess(databaseUrl: string, sandboxUrl: string, secretKey: string) {
  const api = await startSourceProcess(
    path.join(here, '../src/main.ts'),
    {
      DATABASE_URL: databaseUrl,
      SANDBOX_URL: sandboxUrl,
      SECRET_KEY: secretKey,
      RUN_WORKER: 'false',
      SERVE_FRONTEND: 'false',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
    },
    /running at http:\/\/localhost:(\d+)/,
  );
  return { url: `http://127.0.0.1:${api.ready[1]}`, pid: api.pid, stop: api.stop };
}

function startWorkerProcess(databaseUrl: string, sandboxUrl: string): { pid: number; stop: () => Promise<void> } {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, SANDBOX_URL: sandboxUrl, LOG_LEVEL: 'warn' };
  for (const id of SOURCES) {
    env[marketplaceEnvNames(id).ratePerSecond] = String(RATE);
    env[marketplaceEnvNames(id).concurrency] = '8';
  }
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '../src/worker-main.ts')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return {
    pid: child.pid ?? 0,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A bare INSERT of the same rows into copies of the four tables and of the stored comparison, with
 * their indexes and without their foreign keys, rolled back. Regular tables, not TEMP ones: a temp
 * table writes no WAL, which made the limit a third cheaper than any real write (200k ISBNs: 15.1 s
 * vs 22.5 s).
 */
async function bareInsert(db: Db, jobId: number, isbns: string[]): Promise<number> {
  const { ms } = await timed(() =>
    db
      .transaction(async (tx) => {
        for (const id of SOURCES) {
          const copy = sql.identifier(`bare_${id}`);
          await tx.execute(sql`CREATE TABLE ${copy} (LIKE ${sql.identifier(MARKETPLACES[id].table)} INCLUDING ALL)`);
          for (let i = 0; i < isbns.length; i += 100_000) {
            await tx.execute(
              sql`INSERT INTO ${copy} (isbn_lookup_job_id, isbn, input_filename) SELECT ${jobId}::int, unnest(${param(isbns.slice(i, i + 100_000))}::text[]), 'scale.csv'`,
            );
          }
        }
        await tx.execute(sql`CREATE TABLE bare_comparison_rows (LIKE ${comparisonRows} INCLUDING ALL)`);
        for (let i = 0; i < isbns.length; i += 100_000) {
          await tx.execute(
            sql`INSERT INTO bare_comparison_rows (job_id, row_id, isbn)
                SELECT ${jobId}::int, ${i}::bigint + n, isbn FROM unnest(${param(isbns.slice(i, i + 100_000))}::text[]) WITH ORDINALITY AS u(isbn, n)`,
          );
        }
        throw new RollBack();
      })
      .catch((err: unknown) => {
        if (!(err instanceof RollBack)) throw err;
      }),
  );
  return ms;
}
class RollBack extends Error {}

/** Bytes psql's COPY of the same query writes, and its time: the limit of a CSV export. */
async function copyLimit(databaseUrl: string, q: CsvQuery): Promise<{ ms: number; lines: number }> {
  const statement = new PgDialect().sqlToQuery(
    sql`COPY (SELECT * FROM ${q.from}${q.where ? sql` WHERE ${q.where}` : sql``} ORDER BY ${orderBySql(q.sort)}) TO STDOUT WITH (FORMAT csv)`.inlineParams(),
  ).sql;
  return timed(
    () =>
      new Promise<number>((resolve, reject) => {
        const psql = spawn('psql', [databaseUrl, '-q', '-c', statement], { stdio: ['ignore', 'pipe', 'inherit'] });
        let lines = 0;
        psql.stdout.on('data', (chunk: Buffer) => {
          for (const byte of chunk) if (byte === 10) lines++;
        });
        psql.on('exit', (code) => (code === 0 ? resolve(lines) : reject(new Error(`psql exited with ${code}`))));
      }),
  ).then(({ ms, value }) => ({ ms, lines: value }));
}

/** The query an export would stream, captured instead of run. */
function captured(start: (exporter: CsvExporter) => Promise<unknown>): CsvQuery {
  let query: CsvQuery | undefined;
  void start({
    stream: (q) => {
      query = q;
      return Promise.reject(new Error('captured'));
    },
  }).catch(() => undefined);
  if (!query) throw new Error('the export did not start its query');
  return query;
}

export async function benchScale(): Promise<void> {
  const label = `${ISBNS / 1000}k ISBNs × ${SOURCES.length}`;
  const pgDb = await benchPostgres();
  const sandbox = await startSandboxProcess();
  // One connection per client at the higher load and a few spare (PostgreSQL allows 100 in all, the workers included).
  const database = await openDatabase({ url: pgDb.url, poolSize: Math.max(...LOADS) + 6 });
  const db = database.db;
  const workers: ReturnType<typeof startWorkerProcess>[] = [];
  let stopApi: (() => Promise<void>) | undefined;
  try {
    const { ctx, admin } = await benchContext(database, pgDb.url, {
      SECRET_KEY,
      UPLOAD_MAX_ISBNS: String(ISBNS),
      UPLOAD_MAX_ROWS: String(ISBNS + 1),
      UPLOAD_MAX_BYTES: String(64 * 1024 * 1024),
    });
    const isbns = sampleIsbns(ISBNS, 1_000_000);
    const file = Buffer.from(`ISBN\n${isbns.join('\n')}\n`);
    // The settings above raised the row and ISBN limits for this run's app.
    const limits = uploadLimits(ctx.config);

    // Ingest beside a bare insert of the same rows.
    const flags = byMarketplace((m) => SOURCES.includes(m.id));
    const ingest = await timed(async () => {
      const { filename, parsed } = await readUploadedFile({ filename: 'scale.csv', data: file }, limits);
      return storeJob(db, admin, { name: 'scale', ...flags }, filename, parsed);
    });
    const jobId = ingest.value.id;
    const bare = await bareInsert(db, jobId, isbns);
    report({
      name: `scale: ingest of a ${label} .csv (${(file.length / 1024 / 1024).toFixed(0)} MB)`,
      value: `${(ingest.ms / 1000).toFixed(1)} s vs bare insert ${(bare / 1000).toFixed(1)} s`,
      ratio: ingest.ms / bare,
      target: '≤ 1.5× bare insert',
      ok: ingest.ms <= 1.5 * bare,
    });
    // No ANALYZE here: ingest refreshes the planner's statistics itself (db/planner-statistics.ts).

    // Pricing over a fixed window with 2 worker processes.
    const processed = async () =>
      Number(
        (await db.execute<{ n: string }>(sql`SELECT coalesce(sum(processed), 0) AS n FROM job_progress WHERE job_id = ${jobId}`)).rows[0]
          ?.n ?? 0,
      );
    for (let i = 0; i < WORKERS; i++) workers.push(startWorkerProcess(pgDb.url, sandbox.url));
    // The window starts WARMUP_S after the first lookups are answered: the workers have started, their
    // rate slots and claims are flowing (the bench starts them from source through tsx).
    while ((await processed()) === 0) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
    const atStart = await processed();
    const window = await timed(() => new Promise((r) => setTimeout(r, WINDOW_S * 1000)));
    const rate = ((await processed()) - atStart) / (window.ms / 1000);
    const configured = RATE * SOURCES.length;
    report({
      name: `scale: pricing, ${WORKERS} workers over ${WINDOW_S} s`,
      value: `${rate.toFixed(1)} lookups/s vs configured ${configured}/s (${RATE}/s per marketplace)`,
      ratio: rate / configured,
      target: '≥ 0.9 of the configured rates',
      ok: rate >= 0.9 * configured,
    });
    // The pages and CSVs are measured with the workers stopped: on 2 cores, pricing beside them left
    // the API process a share of the CPU (load 10–17), so their ratio measured the machine, not the API.
    const workerPeaks = workers.map((w) => peakRssOf(w.pid));
    await Promise.all(workers.splice(0).map((w) => w.stop()));

    const api = await startApiProcess(pgDb.url, sandbox.url, SECRET_KEY);
    stopApi = api.stop;
    const base = api.url;
    const token = await ctx.tokens.createAccessToken(admin);
    const staff = await staffTokens(ctx, Math.max(...LOADS));
    const job = await findVisibleJob(db, admin, jobId);
    const fees = await feeSchedulesInForce(db);
    const abe = MARKETPLACES.abe_books;
    const ofJob = [{ field: 'isbn_lookup_job_id', operator: 'equals', value: String(jobId) }];
    const priced = [
      { field: 'lookup_status', operator: 'equals', value: 'completed' },
      { field: 'listing_price', operator: 'gt', value: '20' },
    ];
    const pages: { name: string; url: string; body: unknown; direct: () => Promise<unknown> }[] = [
      {
        name: 'job page (comparison, default sort)',
        url: `/api/v1/jobs/${jobId}/comparison?skip=0&limit=10`,
        body: { filters: [] },
        direct: () => listComparison(db, job, { filters: [], fees }, { skip: 0, limit: 10 }),
      },
      {
        name: 'job page (comparison, sorted by spread)',
        url: `/api/v1/jobs/${jobId}/comparison?skip=0&limit=10&sort_by=spread&sort_direction=desc`,
        body: { filters: [] },
        direct: () => listComparison(db, job, { filters: [], sort_by: 'spread', sort_direction: 'desc', fees }, { skip: 0, limit: 10 }),
      },
      {
        name: 'lookups page (the job, default sort)',
        url: '/api/v1/abe-books/price-lookups?skip=0&limit=10',
        body: { filters: ofJob },
        direct: () => listLookups(db, abe, admin, { filters: ofJob as never }, { skip: 0, limit: 10 }),
      },
      {
        name: 'lookups page (completed, price > 20, by price desc)',
        url: '/api/v1/abe-books/price-lookups?skip=0&limit=10&sort_by=listing_price&sort_direction=desc',
        body: { filters: priced },
        direct: () =>
          listLookups(
            db,
            abe,
            admin,
            { filters: priced as never, sort_by: 'listing_price', sort_direction: 'desc' },
            { skip: 0, limit: 10 },
          ),
      },
    ];
    for (const page of pages) {
      for (const clients of LOADS) {
        await loadInProcess(page.direct, clients, WARM);
        const direct = await loadInProcess(page.direct, clients, REQUESTS);
        await runLoadClient(`${base}${page.url}`, staff, page.body, clients, WARM); // as the direct SQL was
        const api = await runLoadClient(`${base}${page.url}`, staff, page.body, clients, REQUESTS);
        const [d95, a95] = [percentile(direct, 95), percentile(api, 95)];
        report({
          name: `scale: ${page.name}, ${clients} clients`,
          value: `API p50 ${percentile(api, 50).toFixed(1)} ms, p95 ${a95.toFixed(1)} ms vs direct SQL p95 ${d95.toFixed(1)} ms`,
          ratio: a95 / d95,
          target: '≤ 1.5× direct SQL',
          ok: a95 <= 1.5 * d95,
        });
      }
    }

    // CSV exports beside COPY of the same query, and this process's memory while streaming them.
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const exports: { name: string; url: string; body: unknown; query: CsvQuery }[] = [
      {
        name: `the job's Abe Books lookups (${ISBNS / 1000}k rows)`,
        url: '/api/v1/abe-books/price-lookups/download-csv',
        body: { filters: ofJob },
        query: captured((e) => lookupsCsv(e, abe, admin, { filters: ofJob as never })),
      },
      {
        name: `the job's comparison (${ISBNS / 1000}k rows)`,
        url: `/api/v1/jobs/${jobId}/comparison/download-csv`,
        body: { filters: [] },
        query: captured((e) => comparisonCsv(e, job, { filters: [], fees })),
      },
    ];
    const download = async (x: (typeof exports)[number]) => {
      const res = await fetch(`${base}${x.url}`, { method: 'POST', headers, body: JSON.stringify(x.body) });
      if (res.status !== 200) throw new Error(`export answered ${res.status}`);
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) for (const byte of chunk) if (byte === 10) lines++;
      return lines - 1;
    };
    for (const x of exports) {
      const copy = await copyLimit(pgDb.url, x.query);
      // Once before measuring: the API process's first export loads its modules and grows its heap
      // (+20 MB at the first export in a process, then flat: +0–3 MB for every later 1M-row export).
      await download(x);
      const streamed = await peakRssDuring(() => timed(() => download(x)), api.pid);
      if (streamed.value.value !== copy.lines) throw new Error(`export wrote ${streamed.value.value} rows, COPY ${copy.lines}`);
      report({
        name: `scale: CSV of ${x.name}`,
        value: `${(streamed.value.ms / 1000).toFixed(2)} s vs COPY ${(copy.ms / 1000).toFixed(2)} s; API process +${mb(streamed.peak - streamed.base)} while streaming`,
        ratio: streamed.value.ms / copy.ms,
        target: '≤ 2× COPY, memory flat (< 64 MB)',
        ok: streamed.value.ms <= 2 * copy.ms && streamed.peak - streamed.base < 64 * 1024 * 1024,
      });
    }
    const apiPeak = peakRssOf(api.pid);
    await api.stop();
    stopApi = undefined;
    report({
      name: 'scale: peak memory, bench process (file, ingest, direct SQL; no target)',
      value: mb(process.resourceUsage().maxRSS * 1024),
    });

    // Peak memory of every process, beside the 1 GB a small server gives the whole app.
    const peaks: [string, number][] = [
      ['API', apiPeak],
      ...workerPeaks.map((bytes, i): [string, number] => [`worker ${i + 1}`, bytes]),
      ['sandbox', peakRssOf(sandbox.pid)],
    ];
    for (const [name, bytes] of peaks) {
      report({
        name: `scale: peak memory, ${name}`,
        value: mb(bytes),
        ratio: bytes / (1024 * 1024 * 1024),
        target: '≤ 0.5 of 1 GB',
        ok: bytes <= 512 * 1024 * 1024,
      });
    }
  } finally {
    await stopApi?.();
    await Promise.all(workers.map((w) => w.stop()));
    await database.close();
    sandbox.stop();
    await pgDb.cleanup();
  }
}
