// Small helpers shared by the benchmarks: timing, percentiles, report lines, a PostgreSQL database.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { findPostgres } from '../test/helpers/postgres-server.ts';
import { must } from '@app/domain/must';
import { rssOf } from './proc-memory.ts';

export const now = () => performance.now();

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = now();
  const value = await fn();
  return { ms: now() - start, value };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return must(sorted[Math.max(0, idx)], 'an index within the non-empty list');
}

export interface Figure {
  name: string;
  value: string;
  ratio?: number;
  target?: string;
  ok?: boolean;
}

const figures: Figure[] = [];

/** One line per figure: what was measured, its ratio and whether the target was met. */
export function report(f: Figure): void {
  figures.push(f);
  const ratio = f.ratio === undefined ? '' : `  ratio ${f.ratio.toFixed(2)}`;
  const target = f.target ? `  target ${f.target}` : '';
  const verdict = f.ok === undefined ? '' : f.ok ? '  [met]' : '  [MISSED]';
  console.log(`${f.name}: ${f.value}${ratio}${target}${verdict}`);
}

export const allFigures = () => figures;

/** A fresh database on the PostgreSQL server the tests use (TEST_DATABASE_URL, local, or throwaway). */
export async function benchPostgres(): Promise<{ url: string; adminUrl: string; cleanup: () => Promise<void> }> {
  const server = await findPostgres();
  const name = `bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    adminUrl: server.adminUrl,
    cleanup: async () => {
      const c = new pg.Client({ connectionString: server.adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      server.stop();
    },
  };
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** `requests` calls of `fn` from `concurrency` callers in this process; the sorted latencies (ms). */
export async function loadInProcess(fn: () => Promise<unknown>, concurrency: number, requests: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const start = now();
        await fn();
        latencies.push(now() - start);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

const loadClient = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-client.ts');

/**
 * POSTs `body` to `url` from a load generator in its own process (load-client.ts); the sorted
 * latencies (ms). With several tokens, client i sends as user i (round robin).
 */
export function runLoadClient(
  url: string,
  token: string | readonly string[],
  body: unknown,
  concurrency: number,
  requests: number,
): Promise<number[]> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', loadClient, url, [token].flat().join(','), JSON.stringify(body), String(concurrency), String(requests)],
      { maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout))),
    ),
  );
}

/**
 * The resident memory of this process (or of process `pid`) before `fn` and its peak during it
 * (sampled every 20 ms).
 */
export async function peakRssDuring<T>(fn: () => Promise<T>, pid?: number): Promise<{ value: T; peak: number; base: number }> {
  const rss = pid === undefined ? () => process.memoryUsage().rss : () => rssOf(pid);
  if (pid === undefined) global.gc?.();
  const base = rss();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 20);
  try {
    const value = await fn();
    return { value, peak: Math.max(peak, rss()), base };
  } finally {
    clearInterval(timer);
  }
}

/**
 * A backend entry point (`script`, run from source through tsx) in its own process, with `env` over
 * this process's environment; resolves once its standard output matches `ready` (its address).
 */
export function startSourceProcess(
  script: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ ready: RegExpMatchArray; pid: number; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(ready);
      if (match) resolve({ ready: match, pid: child.pid ?? 0, stop });
    });
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited with ${code}: ${out}`)));
  });
}
