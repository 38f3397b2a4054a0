import { defineConfig } from 'vitest/config';

// Unit tests only: pure functions under src/. The browser suite is Playwright (playwright.config.ts).
// One process for all files (isolate: false): pure functions need no fresh module state, and a process
// per file cost more than the tests themselves.
export default defineConfig({
  // Two files at a time, as every project (the root vitest.config.ts says why; projects must agree).
  test: { name: 'frontend', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], isolate: false, maxWorkers: 2 },
});
