// The scan page (issue 31): Chromium's fake camera playing a book's barcode drawn by bwip-js
// (e2e/fake-camera.ts) and read by the page's reader (ZXing's WebAssembly build from our own server,
// where the browser has no BarcodeDetector, as headless Chromium on Linux has none); a hardware
// scanner's quick keystrokes; typing, where a UPC is refused with the normaliser's reason; each book's
// verdict from the session's rule set, provisional until the marketplaces answer, then final; copies,
// marks and undo; a decisions-only account sees outcomes without a figure.
import { ISBN_REJECTION } from '@app/domain/isbn';
import { CAMERA_MESSAGES } from '../../src/components/scan/camera-errors';
import { barcodeVideo, withFakeCamera } from '../fake-camera';
import { type Api, expect, expectAccessible, test } from '../fixtures';
import type { Page } from '@playwright/test';

const BOOK = '9780131457577';
// The browser starts with its camera: the video must exist before the launch.
test.use({ launchOptions: withFakeCamera(await barcodeVideo(`${BOOK} 51999`)) });

const rows = (page: Page) => page.getByTestId('scan-row');
const verdict = (page: Page) => page.getByTestId('verdict');
const refusal = (page: Page) => page.getByTestId('scan-refusal');

/** A rule set of the user's own: a priced book is a Buy, anything else a Reject (an "Otherwise"). */
async function floorRules(api: Api, token: string, name = 'Floor rules'): Promise<void> {
  await api.call('POST', '/api/v1/rule-sets', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name,
      rules: [
        { outcome: 'Buy', color: 'green', conditions: [{ field: 'best_price', operator: 'gte', value: 0.01 }] },
        { outcome: 'Reject', color: 'red', conditions: [{ field: 'isbn', operator: 'contains', value: '9' }] },
      ],
    },
  });
}

/** Picks the user's rule set for the session the first scan starts. */
async function chooseRules(page: Page, name = 'Floor rules'): Promise<void> {
  await page.getByRole('combobox', { name: 'Rule set' }).click();
  await page.getByRole('option', { name }).click();
}
const blurAll = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

test('the camera reads a book’s barcode, price add-on and all, once while it stays in view, and shows its verdict; the reader comes from our server', async ({
  userPage: page,
  user,
  api,
  baseURL,
}) => {
  await floorRules(api, user.token);
  await page.context().grantPermissions(['camera']);
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== new URL(baseURL ?? '').origin && !r.url().startsWith('data:')) elsewhere.push(r.url());
  });
  await page.goto('/scan');
  await expect(page.getByRole('heading', { name: 'Scan', level: 2 })).toBeVisible();
  await chooseRules(page);
  const native = await page.evaluate(() => 'BarcodeDetector' in window);
  test.info().annotations.push({ type: 'native BarcodeDetector', description: String(native) });

  const wasm = page.waitForResponse((r) => r.url().endsWith('.wasm'));
  await page.getByRole('button', { name: 'Start camera' }).click();
  if (!native) {
    const res = await wasm;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/wasm');
  }
  await expect(verdict(page)).toContainText(BOOK, { timeout: 20_000 });
  // Nothing known of the book yet: judged on what is known (provisional), final once the marketplaces answered.
  await expect(verdict(page).locator('[data-state="final"]')).toHaveAttribute('data-outcome', 'Buy', { timeout: 30_000 });
  await expect(page.getByTestId('verdict-state')).toHaveText('Final');
  await expect(verdict(page)).toContainText('Est. profit after fees');
  await expect(page.getByLabel('Camera picture')).toHaveAttribute('data-reader', native ? 'native' : 'zxing');
  // The camera keeps seeing the same barcode several times a second: still one scan.
  await page.waitForTimeout(1000);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByTestId('scan-session-name')).toContainText('Scan ');
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${dir}/scan-camera-390.png` });
  }

  // Hidden (another tab, the phone locked): the camera is released; shown again: it comes back.
  const cameraLive = () =>
    page.getByLabel('Camera picture').evaluate((v: HTMLVideoElement) => {
      const stream = v.srcObject as MediaStream | null;
      return stream?.getVideoTracks().some((t) => t.readyState === 'live') ?? false;
    });
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((s) => {
      Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  expect(await cameraLive()).toBe(true);
  await setVisibility('hidden');
  await expect.poll(cameraLive).toBe(false);
  await setVisibility('visible');
  await expect.poll(cameraLive).toBe(true);

  await page.getByRole('button', { name: 'Stop camera' }).click();
  await expect(page.getByRole('button', { name: 'Start camera' })).toBeVisible();
  expect(await cameraLive()).toBe(false);
  expect(elsewhere, 'requests to other servers').toEqual([]);
});

test('a camera the browser refuses says so, and typing still works', async ({ userPage: page }) => {
  // No camera permission granted: the browser refuses getUserMedia as a person pressing Block would.
  await page.goto('/scan');
  await page.getByRole('button', { name: 'Start camera' }).click();
  await expect(page.getByRole('alert').filter({ hasText: CAMERA_MESSAGES.denied })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start camera' })).toBeVisible();
  const box = page.getByRole('textbox', { name: 'ISBN', exact: true });
  await box.fill(BOOK);
  await box.press('Enter');
  await expect(verdict(page)).toContainText(BOOK);
});

test('a hardware scanner’s quick keystrokes ending in Enter are a scan; a person’s slow typing is not', async ({ userPage: page }) => {
  await page.goto('/scan');
  await expect(page.getByRole('heading', { name: 'Scan', level: 2 })).toBeVisible();
  await blurAll(page);
  await page.keyboard.type('9780306406157\n', { delay: 10 });
  await expect(verdict(page)).toContainText('9780306406157');
  // No rule set of theirs and no team default: the page says how to get one, and still shows the figures.
  await expect(verdict(page)).toContainText('No rule set yet');
  await expect(verdict(page)).toContainText('Best price');

  // A scanner's UPC: refused with the normaliser's reason.
  await page.keyboard.type('036000291452\n', { delay: 10 });
  await expect(refusal(page)).toContainText(ISBN_REJECTION.upc);

  // With Start camera focused, the scanner's Enter is the scanner's: the camera does not start.
  await page.getByRole('button', { name: 'Start camera' }).focus();
  await page.keyboard.type('9791032305690\n', { delay: 10 });
  await expect(verdict(page)).toContainText('9791032305690');
  await expect(page.getByRole('button', { name: 'Start camera' })).toBeVisible();

  await blurAll(page);
  await page.keyboard.type('9780131457577\n', { delay: 120 });
  await page.waitForTimeout(300);
  await expect(rows(page)).toHaveCount(2);
});

test('typing: an ISBN in any form is read, a UPC is refused with the reason; the page fits a phone', async ({ userPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/scan');
  const box = page.getByRole('textbox', { name: 'ISBN', exact: true });
  await box.fill('0-13-145757-8');
  await box.press('Enter');
  await expect(verdict(page)).toContainText(BOOK);
  await expect(box).toHaveValue('');

  await box.fill('036000291452');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(refusal(page)).toContainText('036000291452');
  await expect(refusal(page)).toContainText(ISBN_REJECTION.upc);

  // Sound and vibration can be turned off, and stay off.
  await page.getByRole('switch', { name: 'Sound' }).uncheck({ force: true });
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Sound' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Vibration' })).toBeChecked();

  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll at 390 px').toBeLessThanOrEqual(390);
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/scan-390.png`, fullPage: true });
  await expectAccessible(page, '/scan');
});

test('a session counts copies and outcomes, marks what was bought, and undoes a scan', async ({ userPage: page, user, api }) => {
  await floorRules(api, user.token);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/scan');
  await page.getByRole('textbox', { name: 'Place (optional)' }).fill('Church sale');
  await chooseRules(page);
  const box = page.getByRole('textbox', { name: 'ISBN', exact: true });
  for (const code of ['9780306406157', '9780131457577', '9780306406157']) {
    await box.fill(code);
    await box.press('Enter');
    await expect(rows(page).first()).toHaveAttribute('data-isbn', code);
  }
  await expect(page.getByTestId('scan-session-name')).toContainText('· Church sale');
  await expect(page.getByTestId('duplicate-note')).toContainText('Already scanned in this session: 2 copies');
  await expect(rows(page)).toHaveCount(3);
  // Every verdict turns final by itself as the marketplaces answer (live events; no reload).
  await expect(page.getByTestId('outcome-counts')).toContainText('Buy: 3', { timeout: 30_000 });

  await rows(page).nth(1).getByRole('button', { name: 'Bought' }).click();
  await expect(page.getByTestId('bought-totals')).toContainText('Bought: 1 book');
  await expect(page.getByTestId('bought-totals')).toContainText('est. profit $');

  await page.getByRole('button', { name: 'Undo last scan' }).click();
  await expect(rows(page)).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll at 390 px').toBeLessThanOrEqual(390);
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/scan-session-390.png`, fullPage: true });
  await expectAccessible(page, '/scan with a session');

  // The session is a job: its page lists the books scanned.
  await page.goto('/jobs');
  await expect(page.getByRole('link', { name: /Scan .* · Church sale/ })).toBeVisible();
});

test('a decisions-only account scans and sees outcomes, never a figure, and reaches no other page', async ({ api, pageAs }) => {
  const scout = await api.decisionsOnlyUser('scout-only');

  const page = await pageAs(scout.token);
  await page.goto('/jobs');
  await expect(page).toHaveURL(/\/scan$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Scan', 'User Settings']);
  await expect(page.getByRole('combobox', { name: 'Rule set' })).toHaveCount(0);
  const box = page.getByRole('textbox', { name: 'ISBN', exact: true });
  await box.fill('9780306406157');
  await box.press('Enter');
  await expect(verdict(page)).toContainText('9780306406157');
  await expect(verdict(page)).not.toContainText('Best price');
  await expect(verdict(page)).not.toContainText('$');
});
