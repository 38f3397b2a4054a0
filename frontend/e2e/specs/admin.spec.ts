// Users Management for superusers (spec §2, §5, §6, §8).
import assert from 'node:assert/strict';
import { TOAST, VALIDATION } from '../../src/lib/messages';
import { ADMIN } from '../harness/app';
import { blur, eventually, expectDisabled, expectPath, expectToast, findRow, logInThroughForm, openLoggedIn, rowAction, seed, uniqueEmail } from '../harness/helpers';
import { e2e } from '../harness/test';

// Labels of required fields end in an asterisk; this matches 'Password *' but not 'Confirm Password'.
const PASSWORD = /^Password\b/;

e2e('a superuser adds, edits and deletes a user', async ({ page }) => {
  await logInThroughForm(page, ADMIN.email, ADMIN.password);
  await expectPath(page, '/');
  await page.getByRole('link', { name: 'Admin' }).click();
  await expectPath(page, '/admin');
  await page.getByRole('heading', { name: 'Users Management' }).waitFor();
  for (const h of ['Full name', 'Email', 'Role', 'Status', 'Actions']) await page.getByRole('columnheader', { name: h, exact: true }).waitFor();

  // Own row: 'You' badge, Superuser, actions disabled.
  const own = await findRow(page, ADMIN.email);
  await own.getByText('You', { exact: true }).waitFor();
  await own.getByText('Superuser').waitFor();
  await expectDisabled(own.getByRole('button', { name: 'Actions' }));
  await page.goto('/admin');

  // Add User with its validation.
  const email = uniqueEmail('added');
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await blur(add.getByLabel('Email'));
  await add.getByText(VALIDATION.emailRequired).waitFor();
  await blur(add.getByLabel(PASSWORD));
  await add.getByText(VALIDATION.passwordRequired).waitFor();
  await blur(add.getByLabel('Confirm Password'));
  await add.getByText(VALIDATION.confirmRequiredAddUser).waitFor();
  assert.equal(await add.getByLabel('Is superuser?').isChecked(), false);
  assert.equal(await add.getByLabel('Is active?').isChecked(), false);
  await add.getByLabel('Email').fill(email);
  await add.getByLabel('Full Name').fill('Added Person');
  await add.getByLabel(PASSWORD).fill('password123');
  await add.getByLabel('Confirm Password').fill('password123');
  await add.getByLabel('Is active?').check();
  await add.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.userCreated);
  await add.waitFor({ state: 'hidden' });

  let row = await findRow(page, email);
  await row.getByText('Added Person').waitFor();
  await row.getByText('User', { exact: true }).waitFor();
  await row.getByText('Active', { exact: true }).waitFor();

  // Edit User: Save disabled until changed; empty password is left out.
  await rowAction(page, row, 'Edit User');
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expectDisabled(edit.getByRole('button', { name: 'Save' }));
  await edit.getByLabel('Full Name').fill('Edited Person');
  await edit.getByLabel('Is active?').uncheck();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.userUpdated);
  row = await findRow(page, email);
  await row.getByText('Edited Person').waitFor();
  await row.getByText('Inactive', { exact: true }).waitFor();
  // The password was not touched: the user can still log in once active again… checked via API below.

  // Delete User: the confirmation says their items go too.
  await rowAction(page, row, 'Delete User');
  const confirm = page.getByRole('dialog', { name: 'Delete User' });
  await confirm.getByText('All items associated with this user will also be permanently deleted').waitFor();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.deleted('user'));
  await page.getByRole('table').waitFor();
  // The list refetches after the delete; wait for the row to go rather than for a fixed time.
  await eventually(async () => (await page.locator('table tbody tr').filter({ hasText: email }).count()) === 0, 'the deleted user to leave the table');
});

e2e('editing a user without a password keeps the old one', async ({ page }) => {
  const user = await seed.user('keeppw', 'Keep Password');
  await openLoggedIn(page, await seed.token(ADMIN.email, ADMIN.password), '/admin');
  const row = await findRow(page, user.email);
  await rowAction(page, row, 'Edit User');
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await edit.getByLabel('Full Name').fill('Kept Password');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.userUpdated);
  assert.ok(await seed.token(user.email, user.password), 'the old password still logs in');
});

e2e('ordinary users see no Admin entry and cannot open /admin', async ({ page }) => {
  const user = await seed.user('notadmin');
  await openLoggedIn(page, user.token, '/admin');
  await expectPath(page, '/');
  await page.getByText('Welcome back, nice to see you again!').waitFor();
  assert.equal(await page.getByRole('link', { name: 'Admin' }).count(), 0);
  // Superusers have no Danger zone.
  await openLoggedIn(page, await seed.token(ADMIN.email, ADMIN.password), '/settings');
  await page.getByRole('tab', { name: 'Appearance' }).waitFor();
  assert.equal(await page.getByRole('tab', { name: 'Danger zone' }).count(), 0);
});
