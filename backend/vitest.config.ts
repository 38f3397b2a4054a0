import { defineConfig } from 'vitest/config';

// Test tiers by file name: `*.int.test.ts` open a database (PGlite and PostgreSQL) or start processes
// and are the integration tests (`npm run test:int`); every other test is a unit test and needs none.
// Everything under test/ is an integration test, as are the worker tests in src/ that open a database.
const INTEGRATION = '**/*.int.test.ts';

// One process for a project's files, not one per file (isolate: false): each file's process spent
// ~1.7 s importing Fastify, Drizzle and PGlite again (26 % of a run of 13 integration files); sharing it
// halved those files' CPU time (75.7 s -> 37.3 s). Test files still share nothing they do not ask for:
// each opens its own database and app and closes them (nothing in test/ mocks modules or edits the
// environment).
// Two files at a time on 2 cores (Vitest's default is cores - 1): with the shared process a file no
// longer spends its first seconds importing, and integration files wait on timers, sockets and other
// processes much of the time, which a second file fills (16 integration files: 162 s -> 117 s, CPU
// 74 -> 67 s, at load 3-8). With a process per file two at once had measured slower (8 files: 138 s ->
// 153 s at load 5-7). A project's own setting: the root config's maxWorkers does not reach projects.
const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks', isolate: false, maxWorkers: 2 } as const;

export default defineConfig({
  test: {
    name: 'backend',
    projects: [
      // test/ too: a test there without the .int name runs here, without a database, and fails loudly.
      {
        test: { ...shared, name: 'unit', include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'test/**/*.test.ts'], exclude: [INTEGRATION] },
      },
      {
        test: {
          ...shared,
          name: 'int',
          include: [INTEGRATION],
          // One PostgreSQL server for the run (found or started; PGlite needs none), migrated copies to
          // start each test's database from, and one backend build.
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
