import { defineConfig } from 'vitest/config';

// Source tests that open a database (PGlite or PostgreSQL); with everything under test/ they are the
// integration tests (`npm run test:int`). All other src tests are unit tests and need no database.
const dbTests = [
  'src/worker/daily-budget.test.ts',
  'src/worker/fairness.test.ts',
  'src/worker/processes.test.ts',
  'src/worker/units.test.ts',
  'src/worker/worker.test.ts',
  'src/worker/batch.test.ts',
];

const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    name: 'backend',
    projects: [
      { test: { ...shared, name: 'unit', include: ['src/**/*.test.ts', 'bench/**/*.test.ts'], exclude: dbTests } },
      {
        test: {
          ...shared,
          name: 'int',
          include: ['test/**/*.test.ts', ...dbTests],
          // One PostgreSQL server for the run (found or started; PGlite needs none), migrated copies to
          // start each test's database from, and one backend build.
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
