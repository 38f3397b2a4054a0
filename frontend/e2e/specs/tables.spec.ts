// Issue 10: the home URL, readable filters in old and new URLs, one click on Save after a corrected
// field and keyboard paths; the axe-core check of every page is accessibility.spec.ts.
import { MARKETPLACES } from '@app/domain/marketplaces';
import { TOAST, VALIDATION } from '../../src/lib/messages';
import { blur, expect, expectAccessible, expectPath, expectToast, logInThroughForm, test } from '../fixtures';
import { MIXED, seedJob, settledTable, waitForJob } from '../jobs';

test('logging in lands on / without ?page=1; other pages keep ?page=N', async ({ page, user }) => {
  await logInThroughForm(page, user.email, user.password);
  await expectPath(page, '/');
  await expect(page.getByRole('heading', { name: /^Hi,/ })).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  await page.goto('/?page=1');
  await expect(page.getByRole('heading', { name: /^Hi,/ })).toBeVisible();
  await expect(page).toHaveURL((u) => u.search === '');
  await page.goto('/?page=2');
  await expect(page.getByRole('heading', { name: /^Hi,/ })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('page')).toBe('2');
});

test('one click on Save submits after a field error was corrected', async ({ userPage: page, user }) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Password' }).click();
  await page.getByLabel('Current Password').fill(user.password);
  await page.getByLabel('New Password').fill('newpassword456');
  await page.getByLabel('Confirm Password').fill('different456');
  await blur(page.getByLabel('Confirm Password'));
  await expect(page.getByText(VALIDATION.passwordsDoNotMatch)).toBeVisible();
  // Correct the field and click Save straight away, the way a person does: the field still has
  // focus, so the click's mousedown is what blurs it.
  await page.getByLabel('Confirm Password').fill('newpassword456');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.passwordUpdated);
});

test('clicking another password field’s eye leaves the confirmation, which then says the passwords do not match', async ({
  userPage: page,
  user,
}) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Password' }).click();
  await page.getByLabel('Current Password').fill(user.password);
  await page.getByLabel('New Password').fill('newpassword456');
  await page.getByLabel('Confirm Password').fill('different456');
  // On a desk the middle of the Password tab's form is New Password's show/hide button: a click
  // there must leave the confirmation (its check runs) as a click anywhere else in the form does.
  const newPasswordEye = page.locator('.mantine-PasswordInput-root', { has: page.getByLabel('New Password') }).getByRole('button');
  await newPasswordEye.click();
  await expect(page.getByText(VALIDATION.passwordsDoNotMatch)).toBeVisible();
  await expect(page.getByLabel('Confirm Password')).not.toBeFocused();
  await expect(page.getByLabel('New Password')).toHaveAttribute('type', 'text');
  // The confirmation's own eye keeps the caret in it.
  await page.getByLabel('Confirm Password').fill('newpassword456');
  await page
    .locator('.mantine-PasswordInput-root', { has: page.getByLabel('Confirm Password') })
    .getByRole('button')
    .click();
  await expect(page.getByLabel('Confirm Password')).toBeFocused();
  await expect(page.getByText(VALIDATION.passwordsDoNotMatch)).toHaveCount(0);
});

test('old quoted filter URLs still work; keyboard users sort, page and close dialogs', async ({ userPage: page, user, api }) => {
  const m = MARKETPLACES.alibris;
  const job = await seedJob(api, user.token, { name: 'keyboard' });
  await seedJob(api, user.token, { name: 'keyboard 2' });
  await waitForJob(api, user.token, job.id);
  const quoted = encodeURIComponent(
    JSON.stringify(JSON.stringify([{ field: 'isbn_lookup_job_id', operator: 'equals', value: String(job.id) }])),
  );
  await page.goto(`/${m.slug}?filters=${quoted}`);
  const table = await settledTable(page, m.title);
  await expect(page.getByLabel('Filter 1 value')).toHaveValue(String(job.id));
  await expect(page.getByTestId('page-range')).toHaveText(`1–10 of ${MIXED.report.isbns_accepted}`);

  // Sorting from the keyboard: focus the header button, press Enter.
  await table.getByRole('columnheader', { name: 'ISBN', exact: true }).getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((u) => u.searchParams.get('sort_by') === 'isbn');

  // The filter builder from the keyboard: Tab to Add filter, Enter adds a row whose field select takes focus by Tab.
  await page.getByRole('button', { name: 'Add filter' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Filter 2 field')).toBeVisible();

  // A row opens its offers with Enter; Escape closes the dialog.
  await table.locator('tbody tr').first().focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: /^Offers for ISBN/ });
  await expect(drawer).toBeVisible();
  // Checked once the drawer has slid in (half-way, its colours are mid-fade): retried until then.
  await expect(() => expectAccessible(page, 'offers drawer', '[role=dialog]')).toPass({ timeout: 10_000 });
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
});
