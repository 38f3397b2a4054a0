import { defineConfig } from 'vitest/config';

// Every Vitest suite, as projects: domain, frontend, 'backend (unit)' (no database) and 'backend (int)'
// (PGlite and PostgreSQL). `npm run test:unit` / `test:int` pick projects; `npm test` runs all of
// them at once with coverage, so one summary covers unit and integration tests together.
export default defineConfig({
  test: {
    projects: ['domain', 'backend', 'frontend'],
    // Two files at a time, set in each project's config (a project's own setting is the one Vitest
    // reads; VITEST_MAX_WORKERS overrides it): most integration files wait on timers, sockets and
    // PostgreSQL, so one at a time left a core idle. On a quiet 2-core machine the whole run took
    // 257 s one at a time (under 1 core busy), 150 s two at a time (1.6), 142 s three (1.9). In
    // `npm test`, beside the static checks, three saved ~5 s over two (165 against 170 s) and met two
    // timing-bound failures in five runs, so two it is (2026-11-29).
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
