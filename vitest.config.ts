import { defineConfig } from 'vitest/config';

// Every Vitest suite, as projects: domain, frontend, 'backend (unit)' (no database) and 'backend (int)'
// (PGlite and PostgreSQL). `npm run test:unit` / `test:int` pick projects; `npm test` runs all of
// them at once with coverage, so one summary covers unit and integration tests together.
export default defineConfig({
  test: {
    projects: ['domain', 'backend', 'frontend'],
    // One file at a time (Vitest's default on 2 cores; each project's setting, which VITEST_MAX_WORKERS
    // overrides): see backend/vitest.config.ts for two at a time.
    reporters: ['default', './scripts/slowest-test-files.ts'],
    coverage: {
      provider: 'v8',
      // Matched against paths relative to each project (src/…) and to the root (domain/src/…).
      include: ['**/src/**/*.{ts,tsx,mjs}'],
      exclude: ['**/*.test.{ts,tsx}', '**/src/client/**', '**/routeTree.gen.ts', '**/fixtures/**', '**/node_modules/**'],
      reporter: ['text-summary'],
      // A summary even when a test fails, so the numbers never go missing from a red run.
      reportOnFailure: true,
      reportsDirectory: 'coverage',
    },
  },
});
