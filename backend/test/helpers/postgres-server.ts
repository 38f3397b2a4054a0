// Finds a real PostgreSQL server for the tests: TEST_DATABASE_URL when set, else the local server
// on 127.0.0.1:5432 when it answers, else a throwaway cluster made with initdb/pg_ctl.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const PG_BIN = '/usr/lib/postgresql/15/bin';

export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Returns an admin URL (a database we may CREATE DATABASE from) and a cleanup function. */
export async function findPostgres(): Promise<{ adminUrl: string; stop: () => void }> {
  if (process.env.TEST_DATABASE_URL) return { adminUrl: process.env.TEST_DATABASE_URL, stop: () => {} };
  const local = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await canConnect(local)) return { adminUrl: local, stop: () => {} };

  // initdb refuses to run as root, so the cluster belongs to the postgres user.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pgtest-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const asPostgres = (cmd: string, args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  asPostgres(`${PG_BIN}/initdb`, ['-D', `${dir}/data`, '-A', 'trust', '-U', 'postgres']);
  asPostgres(`${PG_BIN}/pg_ctl`, [
    '-D',
    `${dir}/data`,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    '-l',
    `${dir}/log`,
    '-w',
    'start',
  ]);
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      spawnSync('runuser', ['-u', 'postgres', '--', `${PG_BIN}/pg_ctl`, '-D', `${dir}/data`, '-m', 'fast', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
