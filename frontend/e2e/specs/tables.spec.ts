// Issue 10: the home URL, readable filters in old and new URLs, one click on Save after a corrected
// field, keyboard paths, and an axe-core check of every page.
import assert from 'node:assert/strict';
import { MARKETPLACES, MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { TOAST, VALIDATION } from '../../src/lib/messages';
import { ADMIN } from '../harness/app';
import { expectAccessible } from '../harness/axe';
import { blur, expectPath, expectToast, logInThroughForm, openLoggedIn, seed } from '../harness/helpers';
import { MIXED, seedJob, settledTable, waitForJob } from '../harness/jobs';
import { e2e } from '../harness/test';

e2e('logging in lands on / without ?page=1; other pages keep ?page=N', async ({ page }) => {
  const user = await seed.user('homeurl');
  await logInThroughForm(page, user.email, user.password);
  await expectPath(page, '/');
  await page.getByRole('heading', { name: /^Hi,/ }).waitFor();
  assert.equal(new URL(page.url()).search, '');
  await page.goto('/?page=1');
  await page.getByRole('heading', { name: /^Hi,/ }).waitFor();
  await page.waitForURL((u) => u.search === '');
  await page.goto('/?page=2');
  await page.getByRole('heading', { name: /^Hi,/ }).waitFor();
  assert.equal(new URL(page.url()).searchParams.get('page'), '2');
});

e2e('one click on Save submits after a field error was corrected', async ({ page }) => {
  const user = await seed.user('oneclick');
  await openLoggedIn(page, user.token, '/settings');
  await page.getByRole('tab', { name: 'Password' }).click();
  await page.getByLabel('Current Password').fill(user.password);
  await page.getByLabel('New Password').fill('newpassword456');
  await page.getByLabel('Confirm Password').fill('different456');
  await blur(page.getByLabel('Confirm Password'));
  await page.getByText(VALIDATION.passwordsDoNotMatch).waitFor();
  // Correct the field and click Save straight away, the way a person does: the field still has
  // focus, so the click's mousedown is what blurs it.
  await page.getByLabel('Confirm Password').fill('newpassword456');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.passwordUpdated);
});

e2e('old quoted filter URLs still work; keyboard users sort, page and close dialogs', async ({ page }) => {
  const m = MARKETPLACES.alibris;
  const { token } = await seed.user('keyboard');
  const job = await seedJob(token, { name: 'keyboard' });
  await seedJob(token, { name: 'keyboard 2' });
  await waitForJob(token, job.id);
  const quoted = encodeURIComponent(JSON.stringify(JSON.stringify([{ field: 'isbn_lookup_job_id', operator: 'equals', value: String(job.id) }])));
  await openLoggedIn(page, token, `/${m.slug}?filters=${quoted}`);
  await settledTable(page, m.title);
  assert.equal(await page.getByLabel('Filter 1 value').inputValue(), String(job.id));
  assert.equal(await page.getByTestId('page-range').innerText(), `1–10 of ${MIXED.report.isbns_accepted}`);

  // Sorting from the keyboard: focus the header button, press Enter.
  const table = await settledTable(page, m.title);
  await table.getByRole('columnheader', { name: 'ISBN', exact: true }).getByRole('button').focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.searchParams.get('sort_by') === 'isbn');

  // The filter builder from the keyboard: Tab to Add filter, Enter adds a row whose field select takes focus by Tab.
  await page.getByRole('button', { name: 'Add filter' }).focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Filter 2 field').waitFor();

  // A row opens its offers with Enter; Escape closes the dialog.
  await table.locator('tbody tr').first().focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: /^Offers for ISBN/ });
  await drawer.waitFor();
  await page.waitForTimeout(400); // the drawer's slide-in transition
  await expectAccessible(page, 'offers drawer', '[role=dialog]');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
});

e2e(
  'every page passes axe-core with no serious or critical violations',
  async ({ page }) => {
    for (const path of ['/login', '/signup', '/recover-password']) {
      await page.goto(path);
      await page.getByRole('button').first().waitFor();
      await expectAccessible(page, path);
    }
    const admin = { token: await seed.token(ADMIN.email, ADMIN.password) };
    const job = await seedJob(admin.token, { name: 'axe' });
    await waitForJob(admin.token, job.id);
    await openLoggedIn(page, admin.token, '/');
    await settledTable(page, 'Jobs');
    await expectAccessible(page, '/');
    await page.goto('/jobs');
    await settledTable(page, 'Jobs');
    await expectAccessible(page, '/jobs');
    for (const m of MARKETPLACE_LIST) {
      await page.goto(`/${m.slug}`);
      await settledTable(page, m.title);
      await expectAccessible(page, `/${m.slug}`);
      // E2E_SCREENSHOTS=dir: pictures at desktop and phone widths to look at (never committed).
      const dir = process.env.E2E_SCREENSHOTS;
      if (dir) {
        for (const width of [1440, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({ path: `${dir}/${m.slug}-${width}.png`, fullPage: true });
        }
        await page.setViewportSize({ width: 1440, height: 900 });
      }
    }
    for (const [path, heading] of [
      ['/items', 'Items Management'],
      ['/admin', 'Users Management'],
      ['/settings', 'User Settings'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, path);
    }
  },
  { timeoutMs: 120_000 },
);
