// Redirects, the 404 page, the sidebar and a bad stored token (spec §2, §4, §8).
import assert from 'node:assert/strict';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { expectPath, openLoggedIn, seed } from '../harness/helpers';
import { e2e } from '../harness/test';

declare global {
  interface Window {
    /** Violations the page reported, collected by the init script below. */
    cspViolations: string[];
  }
}

e2e('protected pages send a logged-out visitor to /login', async ({ page }) => {
  for (const path of ['/', '/items', '/settings', '/admin', '/abe-books']) {
    await page.goto(path);
    await expectPath(page, '/login');
  }
});

e2e('public pages send a logged-in user home', async ({ page }) => {
  const user = await seed.user('public');
  await openLoggedIn(page, user.token, '/');
  for (const path of ['/login', '/signup', '/recover-password', '/reset-password']) {
    await page.goto(path);
    await expectPath(page, '/');
    // Page 1 is the default: no ?page=1 (issue 10).
    await page.waitForURL((u) => u.search === '');
  }
});

e2e('unknown paths show the 404 page with a way back', async ({ page }) => {
  const user = await seed.user('lost');
  await openLoggedIn(page, user.token, '/no/such/page');
  await page.getByRole('heading', { name: 'Oops!' }).waitFor();
  await page.getByText('Page not found.').waitFor();
  await page.getByRole('link', { name: 'Go back' }).click();
  await expectPath(page, '/');
  await page.getByText('Welcome back, nice to see you again!').waitFor();
});

e2e('the sidebar reaches every marketplace page', async ({ page }) => {
  const user = await seed.user('sidebar');
  await openLoggedIn(page, user.token, '/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['Dashboard', 'Items', 'User Settings']) await nav.getByRole('link', { name: label, exact: true }).waitFor();
  for (const m of MARKETPLACE_LIST) {
    await nav.getByRole('link', { name: m.label, exact: true }).click();
    await expectPath(page, `/${m.slug}`);
    await page.getByRole('heading', { name: m.title }).waitFor();
  }
});

e2e('a bad stored token ends on /login with the token removed', async ({ page }) => {
  await openLoggedIn(page, 'not-a-real-token', '/items');
  await expectPath(page, '/login');
  await page.getByRole('button', { name: 'Log In' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('access_token')), null);
});

e2e('on a phone the sidebar is a drawer', async ({ page }) => {
  const user = await seed.user('mobile');
  await page.setViewportSize({ width: 390, height: 800 });
  await openLoggedIn(page, user.token, '/');
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await drawer.getByRole('link', { name: 'Items' }).click();
  await expectPath(page, '/items');
  await drawer.waitFor({ state: 'hidden' });
});

e2e('pages work under the Content Security Policy, with no violation', async ({ page }) => {
  const user = await seed.user('csp');
  await page.addInitScript(() => {
    const seen: string[] = [];
    window.cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const consoleErrors: string[] = [];
  page.on('console', (msg) => msg.type() === 'error' && /Content Security Policy/i.test(msg.text()) && consoleErrors.push(msg.text()));
  const first = await page.goto('/login');
  assert.match(first?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
  await openLoggedIn(page, user.token, '/');
  await page.getByText('Welcome back, nice to see you again!').waitFor();
  for (const path of ['/abe-books', '/settings', '/items']) {
    await page.goto(path);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.deepEqual(await page.evaluate(() => window.cspViolations), [], `CSP violations on ${path}`);
  }
  // The API's interactive docs load under the same policy.
  await page.goto('/docs');
  await page.getByText('Price Lookup Dashboard').first().waitFor();
  assert.deepEqual(await page.evaluate(() => window.cspViolations), [], 'CSP violations on /docs');
  assert.deepEqual(consoleErrors, []);
});
