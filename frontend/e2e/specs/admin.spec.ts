// Users Management for superusers (docs/requirements.md, Admin).
import { TOAST, VALIDATION } from '../../src/lib/messages';
import {
  ADMIN,
  blur,
  expect,
  expectPath,
  expectToast,
  findRow,
  logInThroughForm,
  deleteRow,
  openRowDialog,
  test,
  uniqueEmail,
} from '../fixtures';

// Labels of required fields end in an asterisk; this matches 'Password *' but not 'Confirm Password'.
const PASSWORD = /^Password\b/;

test('a superuser adds, edits and deletes a user', async ({ page }) => {
  await logInThroughForm(page, ADMIN.email, ADMIN.password);
  await expectPath(page, '/');
  await page.getByRole('link', { name: 'Admin' }).click();
  await expectPath(page, '/admin');
  await expect(page.getByRole('heading', { name: 'Users Management' })).toBeVisible();
  for (const h of ['Full name', 'Email', 'Role', 'Status', 'Actions'])
    await expect(page.getByRole('columnheader', { name: h, exact: true })).toBeVisible();

  // Own row (the oldest user: the last page): 'You' badge, Superuser, actions disabled.
  const own = await findRow(page, ADMIN.email);
  await expect(own.getByText('You', { exact: true })).toBeVisible();
  await expect(own.getByText('Superuser')).toBeVisible();
  await expect(own.getByRole('button', { name: 'Actions' })).toBeDisabled();
  await page.goto('/admin');

  // Add User with its validation.
  const email = uniqueEmail('added');
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await blur(add.getByLabel('Email'));
  await expect(add.getByText(VALIDATION.emailRequired)).toBeVisible();
  await blur(add.getByLabel(PASSWORD));
  await expect(add.getByText(VALIDATION.passwordRequired)).toBeVisible();
  await blur(add.getByLabel('Confirm Password'));
  await expect(add.getByText(VALIDATION.confirmRequiredAddUser)).toBeVisible();
  await expect(add.getByLabel('Is superuser?')).not.toBeChecked();
  await expect(add.getByLabel('Is active?')).not.toBeChecked();
  await add.getByLabel('Email').fill(email);
  await add.getByLabel('Full Name').fill('Added Person');
  await add.getByLabel(PASSWORD).fill('password123');
  await add.getByLabel('Confirm Password').fill('password123');
  await add.getByLabel('Is active?').check();
  await add.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.userCreated);
  await expect(add).toBeHidden();

  // Newest first: the new user shows on this page once the list has refetched.
  const row = page.locator('table tbody tr').filter({ hasText: email });
  await expect(row.getByText('Added Person')).toBeVisible();
  await expect(row.getByText('User', { exact: true })).toBeVisible();
  await expect(row.getByText('Active', { exact: true })).toBeVisible();

  // Edit User: Save disabled until changed; empty password is left out.
  const edit = await openRowDialog(page, row, 'Edit User');
  await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
  await edit.getByLabel('Full Name').fill('Edited Person');
  await edit.getByLabel('Is active?').uncheck();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.userUpdated);
  await expect(row.getByText('Edited Person')).toBeVisible();
  await expect(row.getByText('Inactive', { exact: true })).toBeVisible();

  // Delete User: the confirmation says their items go too.
  await deleteRow(page, row, 'user', 'All items associated with this user will also be permanently deleted');
  await expect(page.getByRole('table')).toBeVisible();
  // The list refetches after the delete: the row goes.
  await expect(row).toHaveCount(0);
});

test('editing a user without a password keeps the old one', async ({ adminPage: page, api }) => {
  const user = await api.user('keeppw', 'Keep Password');
  await page.goto('/admin');
  const row = await findRow(page, user.email);
  const edit = await openRowDialog(page, row, 'Edit User');
  await edit.getByLabel('Full Name').fill('Kept Password');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.userUpdated);
  expect(await api.token(user.email, user.password), 'the old password still logs in').toBeTruthy();
});

test('ordinary users see no Admin entry and cannot open /admin', async ({ userPage, adminPage }) => {
  await userPage.goto('/admin');
  await expectPath(userPage, '/');
  await expect(userPage.getByText('Welcome back, nice to see you again!')).toBeVisible();
  await expect(userPage.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  // Superusers have no Danger zone.
  await adminPage.goto('/settings');
  await expect(adminPage.getByRole('tab', { name: 'Appearance' })).toBeVisible();
  await expect(adminPage.getByRole('tab', { name: 'Danger zone' })).toHaveCount(0);
});
