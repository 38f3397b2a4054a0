import { defineConfig } from 'vitest/config';
// One process for all files (isolate: false), as frontend/: pure functions, no module state to reset.
export default defineConfig({ test: { name: 'domain', include: ['src/**/*.test.ts'], isolate: false } });
