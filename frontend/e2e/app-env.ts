// What global-setup.ts gives the app and the tests, and how the browser is launched.
import type { LaunchOptions } from '@playwright/test';

/** Debian's chromium (browsers cannot be downloaded here); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
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
