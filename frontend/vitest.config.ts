import { defineConfig } from 'vitest/config';

// Unit tests only: pure functions under src/. The browser suite is Playwright (playwright.config.ts).
export default defineConfig({ test: { name: 'frontend', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'] } });
