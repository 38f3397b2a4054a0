import { defineConfig } from 'vitest/config';
// One process for all files (isolate: false), as frontend/: pure functions, no module state to reset.
// Two at a time, as every project (Vitest refuses projects that differ in maxWorkers).
export default defineConfig({ test: { name: 'domain', include: ['src/**/*.test.ts'], isolate: false, maxWorkers: 2 } });
