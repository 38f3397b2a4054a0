// What global-setup.ts gives the app and the tests, and how the browser is launched.
import type { LaunchOptions } from '@playwright/test';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Debian's chromium-headless-shell (browsers cannot be downloaded here): the headless build
 * Playwright itself runs by default, without the full browser's window and tab-strip processes. On
 * these 2 cores the suite's browsers took ~1.0 core instead of ~1.6 (the same 80 tests), which lets
 * more spec files run at once. CHROMIUM_PATH points elsewhere (the full browser: /usr/bin/chromium).
 */
export const CHROMIUM: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
  args: FLAGS,
};

/**
 * Debian's full chromium, for the specs that need what the headless shell lacks: a camera
 * (Chromium's fake capture device plays no video in the shell, so the scanner's reader saw nothing).
 */
export const CHROMIUM_FULL: LaunchOptions = {
  executablePath: process.env.CHROMIUM_FULL_PATH ?? '/usr/bin/chromium',
  args: FLAGS,
};

/** The sandbox of the browser run refuses this ISBN once per marketplace (a failed lookup to retry); only control.spec.ts uses it. */
export const REFUSED_ONCE_ISBN = '9789876543217';

/** Rejected cells kept per job in the browser run (UPLOAD_MAX_REJECTIONS_KEPT), small so paste.spec.ts can pass it. */
export const REJECTIONS_KEPT = 50;

export const ADMIN = { email: 'admin@example.com', password: 'changethis123' } as const;

export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the browser suite with `npm run e2e -w frontend` (playwright test)');
  return url;
}

export function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR is not set: run the browser suite with `npm run e2e -w frontend` (playwright test)');
  return dir;
}
