// Vitest global setup, handed to test files via provide/inject: one PostgreSQL server for the whole
// run, and one migrated PGlite database as a file each test's PGlite starts from (PGlite's initdb
// costs ~2.5 s per database, loading the copy ~1 s; the suite opens a hundred or so).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpPgliteSnapshot } from '../../src/db/client.ts';
import { findPostgres } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** A migrated PGlite data directory (dumpDataDir's tarball) for OpenOptions.snapshot. */
    pgliteSnapshotFile: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [{ adminUrl, stop }, snapshot] = await Promise.all([findPostgres(), dumpPgliteSnapshot()]);
  const dir = mkdtempSync(path.join(tmpdir(), 'pglite-snapshot-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgliteSnapshotFile', file);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await stop();
  };
}
