// Redirects, the 404 page, the sidebar and a bad stored token (docs/requirements.md: Session, The signed-in
// layout, Not found).
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { expect, expectPath, test } from '../fixtures';

test('protected pages send a logged-out visitor to /login', async ({ page }) => {
  for (const path of ['/', '/items', '/settings', '/admin', '/abe-books']) {
    await page.goto(path);
    await expectPath(page, '/login');
  }
});

test('public pages send a logged-in user home', async ({ userPage: page }) => {
  await page.goto('/');
  for (const path of ['/login', '/signup', '/recover-password', '/reset-password']) {
    await page.goto(path);
    await expectPath(page, '/');
    // Page 1 is the default: no ?page=1 (issue 10).
    await expect(page).toHaveURL((u) => u.search === '');
  }
});

test('unknown paths show the 404 page with a way back', async ({ userPage: page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Oops!' })).toBeVisible();
  await expect(page.getByText('Page not found.')).toBeVisible();
  await page.getByRole('link', { name: 'Go back' }).click();
  await expectPath(page, '/');
  await expect(page.getByText('Welcome back, nice to see you again!')).toBeVisible();
});

test('the sidebar reaches every marketplace page', async ({ userPage: page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['Dashboard', 'Items', 'User Settings'])
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  for (const m of MARKETPLACE_LIST) {
    await nav.getByRole('link', { name: m.label, exact: true }).click();
    await expectPath(page, `/${m.slug}`);
    await expect(page.getByRole('heading', { name: m.title })).toBeVisible();
  }
});

test('a bad stored token ends on /login with the token removed', async ({ pageAs }) => {
  const page = await pageAs('not-a-real-token');
  await page.goto('/items');
  await expectPath(page, '/login');
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
});

test('on a phone the sidebar is a drawer', async ({ userPage: page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await drawer.getByRole('link', { name: 'Items' }).click();
  await expectPath(page, '/items');
  await expect(drawer).toBeHidden();
});

test('pages work under the Content Security Policy, with no violation', async ({ userPage: page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  const consoleErrors: string[] = [];
  page.on('console', (msg) => msg.type() === 'error' && /Content Security Policy/i.test(msg.text()) && consoleErrors.push(msg.text()));
  const first = await page.goto('/login');
  expect(first?.headers()['content-security-policy'] ?? '').toMatch(/script-src 'self'/);
  await page.goto('/');
  await expect(page.getByText('Welcome back, nice to see you again!')).toBeVisible();
  for (const path of ['/abe-books', '/settings', '/items']) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    expect(await violations(), `CSP violations on ${path}`).toEqual([]);
  }
  // The API's interactive docs load under the same policy.
  await page.goto('/docs');
  await expect(page.getByText('Price Lookup Dashboard').first()).toBeVisible();
  expect(await violations(), 'CSP violations on /docs').toEqual([]);
  expect(consoleErrors).toEqual([]);
});
