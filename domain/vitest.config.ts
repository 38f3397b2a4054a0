import { defineConfig } from 'vitest/config';
// One process for all files (isolate: false), as frontend/: pure functions, no module state to reset.
// Two files at a time, as every project (the root vitest.config.ts says why; projects must agree).
export default defineConfig({ test: { name: 'domain', include: ['src/**/*.test.ts'], isolate: false, maxWorkers: 2 } });
