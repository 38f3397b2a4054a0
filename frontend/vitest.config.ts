import { defineConfig } from 'vitest/config';

// Unit tests only: pure functions under src/. The browser suite is e2e/run.ts (`npm run test:e2e`).
export default defineConfig({ test: { name: 'frontend', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'] } });
