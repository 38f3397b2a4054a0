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
// Two files at a time (the root vitest.config.ts says why; every project sets it, since Vitest runs
// projects of different maxWorkers apart). Tried at load 5-9, beside the browser suite, two at a
// time failed five timing-bound tests (graceful stop, worker processes, backoff gaps, live events,
// metrics); so `npm test` runs Vitest alone, and the browsers after it.
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
