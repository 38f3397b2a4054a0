import { defineConfig } from 'vitest/config';

// Unit tests only: pure functions under src/. The browser suite is e2e/run.ts.
export default defineConfig({ test: { include: ['src/**/*.test.ts', 'src/**/*.test.tsx'] } });
