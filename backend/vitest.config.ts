import { defineConfig } from 'vitest/config';

// Test tiers by file name: `*.int.test.ts` open a database (PGlite and PostgreSQL) or start processes
// and are the integration tests (`npm run test:int`); every other test is a unit test and needs none.
// Everything under test/ is an integration test, as are the worker tests in src/ that open a database.
const INTEGRATION = '**/*.int.test.ts';

const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

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
