import { defineConfig } from 'vitest/config';

// Every Vitest suite, as projects: domain, frontend, backend-unit (no database) and backend-int
// (PGlite and PostgreSQL). `npm run test:unit` / `test:int` pick projects; `npm test` runs all of
// them at once with coverage, so one summary covers unit and integration tests together.
export default defineConfig({
  test: {
    projects: ['domain', 'backend', 'frontend'],
    coverage: {
      provider: 'v8',
      include: ['{domain,backend,frontend}/src/**/*.{ts,tsx,mjs}'],
      exclude: ['**/*.test.{ts,tsx}', 'frontend/src/client/**', 'frontend/src/routeTree.gen.ts', 'backend/src/db/migrations/**'],
      reporter: ['text-summary'],
      reportsDirectory: 'coverage',
    },
  },
});
