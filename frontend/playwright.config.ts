// Browser suite: @playwright/test driving Debian's chromium (browsers cannot be downloaded here)
// against the whole product started by e2e/global-setup.ts (`npm start`, fresh DATA_DIR, free port,
// a real SMTP server for the recovery email). `npm run e2e -w frontend [-- e2e/specs/auth.spec.ts]`.
import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './e2e/app-env';

/**
 * Specs that run after the side-by-side ones, one at a time:
 * - they change team-wide settings other specs read while they run: AbeBooks' fee schedule (every
 *   estimated profit) and the team's default rule set (every verdict without a rule set of its own);
 *   each file sets them back when it ends;
 * - Keepa's history reaching a re-priced book, which missed its 60 s beside another spec's jobs in
 *   the same app at load 17 (books); run beside the fee and rule specs instead (the other worker), its
 *   Keepa history took ~55 s of the 60 in one of three runs (2026-11-28, issue 33).
 */
const ONE_AT_A_TIME = ['**/fees.spec.ts', '**/rules.spec.ts', '**/rules-oversight.spec.ts', '**/books.spec.ts'];
/**
 * Specs whose subject is the pace of input, last: a scanner's keystrokes 10 ms apart against a
 * person's 120 ms (scan). `npm test` runs them on their own once Vitest is done (scripts/test.sh):
 * a busy machine delays a key, and two late keys split a scan.
 */
const PACE = ['**/scan.spec.ts'];

export default defineConfig({
  testDir: 'e2e/specs',
  // Each part of `npm test`'s run has its own (scripts/test.sh): a run empties its folder first.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e',
  globalSetup: './e2e/global-setup.ts',
  // One app and one database for the run. Three spec files at a time (E2E_WORKERS to change it): most
  // of a spec's time is spent waiting on the app (the worker pricing a job, a page polling), which the
  // other browsers fill (at load 17: 1,192 s one at a time, 597 s two). With the headless shell, two
  // left a core idle (1.0 core busy); four filled both (1.9). Each file's tests still run in order, in
  // one worker, unless the file asks for parallel mode.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  fullyParallel: false,
  projects: [
    { name: 'side-by-side', testIgnore: [...ONE_AT_A_TIME, ...PACE] },
    { name: 'one-at-a-time', testMatch: ONE_AT_A_TIME, dependencies: ['side-by-side'], workers: 1 },
    { name: 'pace', testMatch: PACE, dependencies: ['one-at-a-time'], workers: 1 },
  ],
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  // An assertion or a click waits up to 20 s: with three specs at a time, their jobs share each
  // marketplace's rate, so a page can take longer than 10 s to show a job's progress (once: Alibris
  // at 80 % when a 10 s click gave up). A passing test waits no longer for it.
  expect: { timeout: 20_000 },
  // The last line printed is 'N passed, N failed' (what CI reads).
  reporter: [['list'], ['./e2e/summary-reporter.ts']],
  use: {
    // Set by global-setup.ts, which runs before the test workers start (they inherit it).
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 1280, height: 800 },
    // The browser asks for less motion, as some people's systems do: no transition to wait out before
    // a dialog or menu is stable.
    reducedMotion: 'reduce',
    actionTimeout: 20_000,
    navigationTimeout: 10_000,
    // A trace of each failed test (DOM snapshots of every step; the screencast would cost a third more
    // time on 2 cores). `npm test` runs without (E2E_TRACE=off): recording every test's steps cost
    // ~10 % of the browser part (170 -> 153 s); a failure still leaves its screenshot and the page's
    // accessibility snapshot (error-context.md), and `npm run e2e -w frontend` keeps the trace.
    trace: process.env.E2E_TRACE === 'off' ? 'off' : { mode: 'retain-on-failure', snapshots: true, screenshots: false, sources: true },
    screenshot: 'only-on-failure',
    browserName: 'chromium',
    headless: true,
    launchOptions: CHROMIUM,
  },
});
