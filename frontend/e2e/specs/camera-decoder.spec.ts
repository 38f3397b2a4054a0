// The scan page's ways in (issue 31): Chromium's fake camera playing a book's barcode drawn by
// bwip-js (e2e/fake-camera.ts) and read by the page's reader (ZXing's WebAssembly build from our own
// server, where the browser has no BarcodeDetector, as headless Chromium on Linux has none); a
// hardware scanner's quick keystrokes; and typing, where a UPC is refused with the normaliser's reason.
import { ISBN_REJECTION } from '@app/domain/isbn';
import { CAMERA_MESSAGES } from '../../src/lib/camera-errors';
import { barcodeVideo, withFakeCamera } from '../fake-camera';
import { expect, expectAccessible, test } from '../fixtures';
import type { Page } from '@playwright/test';

const BOOK = '9780131457577';
// The browser starts with its camera: the video must exist before the launch.
test.use({ launchOptions: withFakeCamera(await barcodeVideo(`${BOOK} 51999`)) });

const entries = (page: Page) => page.getByTestId('scan-entry');
const blurAll = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

test('the camera reads a book’s barcode, price add-on and all, once while it stays in view; the reader comes from our server', async ({
  userPage: page,
  baseURL,
}) => {
  await page.context().grantPermissions(['camera']);
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== new URL(baseURL ?? '').origin && !r.url().startsWith('data:')) elsewhere.push(r.url());
  });
  await page.goto('/scan');
  await expect(page.getByRole('heading', { name: 'Scan', level: 2 })).toBeVisible();
  const native = await page.evaluate(() => 'BarcodeDetector' in window);
  test.info().annotations.push({ type: 'native BarcodeDetector', description: String(native) });

  const wasm = page.waitForResponse((r) => r.url().endsWith('.wasm'));
  await page.getByRole('button', { name: 'Start camera' }).click();
  if (!native) {
    const res = await wasm;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/wasm');
  }
  await expect(entries(page).first()).toContainText(BOOK, { timeout: 20_000 });
  await expect(entries(page).first()).toContainText('Camera');
  await expect(page.getByLabel('Camera picture')).toHaveAttribute('data-reader', native ? 'native' : 'zxing');
  // The camera keeps seeing the same barcode several times a second: still one read.
  await page.waitForTimeout(1000);
  await expect(entries(page)).toHaveCount(1);
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
  await expect(entries(page).first()).toContainText(BOOK);
});

test('a hardware scanner’s quick keystrokes ending in Enter are a scan; a person’s slow typing is not', async ({ userPage: page }) => {
  await page.goto('/scan');
  await expect(page.getByRole('heading', { name: 'Scan', level: 2 })).toBeVisible();
  await blurAll(page);
  await page.keyboard.type('9780306406157\n', { delay: 10 });
  await expect(entries(page).first()).toContainText('9780306406157');
  await expect(entries(page).first()).toContainText('Scanner');

  // A scanner's UPC: refused with the normaliser's reason.
  await page.keyboard.type('036000291452\n', { delay: 10 });
  await expect(entries(page).first()).toContainText(ISBN_REJECTION.upc);

  // With Start camera focused, the scanner's Enter is the scanner's: the camera does not start.
  await page.getByRole('button', { name: 'Start camera' }).focus();
  await page.keyboard.type('9791032305690\n', { delay: 10 });
  await expect(entries(page).first()).toContainText('9791032305690');
  await expect(page.getByRole('button', { name: 'Start camera' })).toBeVisible();

  await blurAll(page);
  await page.keyboard.type('9780131457577\n', { delay: 120 });
  await page.waitForTimeout(300);
  await expect(entries(page)).toHaveCount(3);
});

test('typing: an ISBN in any form is read, a UPC is refused with the reason; the page fits a phone', async ({ userPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/scan');
  const box = page.getByRole('textbox', { name: 'ISBN', exact: true });
  await box.fill('0-13-145757-8');
  await box.press('Enter');
  await expect(entries(page).first()).toContainText(BOOK);
  await expect(entries(page).first()).toContainText('Typed');
  await expect(box).toHaveValue('');

  await box.fill('036000291452');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(entries(page).first()).toContainText('036000291452');
  await expect(entries(page).first()).toContainText(ISBN_REJECTION.upc);

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
