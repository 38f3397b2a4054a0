// Small helpers shared by the benchmarks: timing, percentiles, report lines, a PostgreSQL database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { findPostgres } from '../test/helpers/postgres-server.ts';
import { must } from '@app/domain/must';

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
