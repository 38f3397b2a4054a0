// Vitest global setup, handed to test files via provide/inject: one PostgreSQL server for the whole
// run, and one migrated database per engine that each test's database starts from: a PGlite copy as a
// file (PGlite's initdb costs ~2.5 s per database, loading the copy ~1 s; the suite opens a hundred or
// so), and a PostgreSQL template database (creating and migrating one costs ~1 s, `CREATE DATABASE …
// TEMPLATE` ~0.2 s). Also the run's one backend build (scripts/bundle.ts, as production runs it), which
// the tests of the deploy recipe and of several processes start: `npm test` builds once before the
// tests and names the build in TEST_BACKEND_BUILD (the browser tests then start the same files);
// otherwise this setup bundles a build of its own and removes it afterwards.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { BACKEND_DIR, bundleBackend, PROCESS_ENTRIES } from '../../scripts/bundle.ts';
import { dumpPgliteSnapshot } from '../../src/db/client.ts';
import { createMigratedTemplate } from './pg-admin.ts';
import { findPostgres } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** A migrated database on that server that no one connects to, for CREATE DATABASE … TEMPLATE. */
    pgTemplate: string;
    /** A migrated PGlite data directory (dumpDataDir's tarball) for OpenOptions.snapshot. */
    pgliteSnapshotFile: string;
    /** The folder of this run's backend build (main.js, worker.js, sandbox.js). */
    backendBuild: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Inside the repository: the bundles find their npm packages by walking up to node_modules.
  const given = process.env.TEST_BACKEND_BUILD;
  const build = given ? path.resolve(given) : path.join(BACKEND_DIR, '.test-build', randomBytes(4).toString('hex'));
  const [{ adminUrl, stop }, snapshot] = await Promise.all([
    findPostgres(),
    dumpPgliteSnapshot(),
    given ? assertBuilt(build) : bundleBackend(build),
  ]);
  const dir = mkdtempSync(path.join(tmpdir(), 'pglite-snapshot-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await snapshot.arrayBuffer()));
  const template = await createMigratedTemplate(adminUrl);
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template.name);
  project.provide('pgliteSnapshotFile', file);
  project.provide('backendBuild', build);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (!given) rmSync(build, { recursive: true, force: true });
    await template.drop();
    await stop();
  };
}

/** A build named by TEST_BACKEND_BUILD must be there: a missing one fails the run, not the tests that start it. */
async function assertBuilt(build: string): Promise<void> {
  for (const file of Object.values(PROCESS_ENTRIES)) {
    if (!existsSync(path.join(build, file)))
      throw new Error(`TEST_BACKEND_BUILD=${build} has no ${file}: run npm run build -w backend first`);
  }
}
