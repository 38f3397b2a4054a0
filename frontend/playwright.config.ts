// Browser suite: @playwright/test driving Debian's chromium (browsers cannot be downloaded here)
// against the whole product started by e2e/global-setup.ts (`npm start`, fresh DATA_DIR, free port,
// a real SMTP server for the recovery email). `npm run e2e -w frontend [-- e2e/specs/auth.spec.ts]`.
import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './e2e/app-env';

export default defineConfig({
  testDir: 'e2e/specs',
  outputDir: 'test-results/e2e',
  globalSetup: './e2e/global-setup.ts',
  // One app and one database for the run; 2 shared cores: one browser at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The last line printed is 'N passed, N failed' (what CI reads).
  reporter: [['list'], ['./e2e/summary-reporter.ts']],
  use: {
    // Set by global-setup.ts, which runs before the test workers start (they inherit it).
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 10_000,
    // DOM snapshots of every step; the screencast (screenshots) would cost a third more time on 2 cores.
    trace: { mode: 'retain-on-failure', snapshots: true, screenshots: false, sources: true },
    screenshot: 'only-on-failure',
    browserName: 'chromium',
    headless: true,
    launchOptions: CHROMIUM,
  },
});
