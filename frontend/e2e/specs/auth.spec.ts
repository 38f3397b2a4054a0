// Sign-up, login, settings and logout through the UI (docs/requirements.md: Session, Public screens,
// Settings).
import type { Page } from '@playwright/test';
import { TOAST, VALIDATION } from '../../src/lib/messages';
import {
  blur,
  expect,
  expectPath,
  expectToast,
  fillNewPasswordCheckingConfirmation,
  logInThroughForm,
  test,
  uniqueEmail,
} from '../fixtures';

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('access_token'));

test('sign up, log in, edit profile, change password, switch appearance, log out', async ({ page }) => {
  const email = uniqueEmail('signup');
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('password123');
  await page.getByLabel('Confirm Password').fill('password123');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expectToast(page, TOAST.signUpSuccessTitle, TOAST.signUpSuccess);
  await expectPath(page, '/login');

  await logInThroughForm(page, email, 'password123');
  await expectPath(page, '/');
  await expect(page.getByRole('heading', { name: 'Hi, Ada Lovelace' })).toBeVisible();
  await expect(page.getByText('Welcome back, nice to see you again!')).toBeVisible();
  await expect(page.getByText('Logged in as')).toBeVisible();
  await expect(page.getByTestId('logged-in-as')).toHaveText(email);
  expect(typeof (await storedToken(page))).toBe('string');
  await expect(page.getByRole('link', { name: 'Admin' }), 'no Admin entry for ordinary users').toHaveCount(0);

  // User menu → My profile (the menu button also answers to the template's test id).
  await expect(page.getByTestId('user-menu')).toHaveAccessibleName('User menu');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'My profile' }).click();
  await expectPath(page, '/settings');
  await expect(page.getByRole('heading', { name: 'User Settings' })).toBeVisible();
  for (const tab of ['My profile', 'Password', 'Appearance', 'Danger zone'])
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();

  // My profile reads as text first; Edit makes it a form. Save only once something changed; email required.
  const profile = page.getByRole('tabpanel', { name: 'My profile' });
  await expect(profile.getByText('Ada Lovelace', { exact: true })).toBeVisible();
  await expect(profile.getByText(email, { exact: true })).toBeVisible();
  await profile.getByRole('button', { name: 'Edit' }).click();
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Full Name').fill('Ada King');
  await expect(save).toBeEnabled();
  await page.getByLabel('Email').fill('');
  await expect(save).toBeDisabled();
  await blur(page.getByLabel('Email'));
  await expect(page.getByText(VALIDATION.emailRequired)).toBeVisible();
  await page.getByLabel('Email').fill(email);
  // Forms validate on blur: leave the field so the message goes (and the buttons settle) first.
  await blur(page.getByLabel('Email'));
  await expect(page.getByText(VALIDATION.emailRequired)).not.toBeAttached();
  await expect(page.getByLabel('Full Name')).toHaveAttribute('maxlength', '30');
  await save.click();
  await expectToast(page, TOAST.successTitle, TOAST.userUpdated);
  // Saved: read as text again, with the new name.
  await expect(profile.getByText('Ada King', { exact: true })).toBeVisible();
  await expect(save).not.toBeAttached();
  // Cancel puts back what was there.
  await profile.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Full Name').fill('Somebody Else');
  await page.getByLabel('Email').fill('someone-else@example.com');
  await profile.getByRole('button', { name: 'Cancel' }).click();
  await expect(profile.getByText('Ada King', { exact: true })).toBeVisible();
  await expect(profile.getByText(email, { exact: true })).toBeVisible();
  await expect(profile.getByText('Somebody Else')).toHaveCount(0);

  // Password: shared rules, then success.
  await page.getByRole('tab', { name: 'Password' }).click();
  await page.getByLabel('Current Password').fill('password123');
  await page.getByLabel('New Password').fill('short');
  await blur(page.getByLabel('New Password'));
  await expect(page.getByText(VALIDATION.passwordMin)).toBeVisible();
  await fillNewPasswordCheckingConfirmation(page, 'newpassword456', 'different456');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.passwordUpdated);

  // Appearance: dark is remembered across reloads.
  await page.getByRole('tab', { name: 'Appearance' }).click();
  const html = page.locator('html');
  // The scheme is also a class on <html>, for class-based stylesheets.
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expect(html).toHaveClass(/(^|\s)light(\s|$)/);
  await page.getByLabel('Dark Mode').check();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(html).not.toHaveClass(/(^|\s)light(\s|$)/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'User Settings' })).toBeVisible();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await page.getByRole('tab', { name: 'Appearance' }).click();
  // The mode's words pick it as well as its radio.
  await page.locator('label').getByText('Light Mode', { exact: true }).click();
  await expect(page.getByLabel('Light Mode')).toBeChecked();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');

  // Log out, then the new password works and the old one does not.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expectPath(page, '/login');
  expect(await storedToken(page)).toBeNull();
  await logInThroughForm(page, email, 'password123');
  await expect(page.getByText('Incorrect email or password')).toBeVisible();
  await logInThroughForm(page, email, 'newpassword456');
  await expect(page.getByRole('heading', { name: 'Hi, Ada King' })).toBeVisible();
});

test('sign-up and login forms validate on blur with the spec messages', async ({ page }) => {
  await page.goto('/signup');
  for (const label of ['Full Name', 'Email', 'Password', 'Confirm Password']) {
    const input = page.getByLabel(label, { exact: true });
    await expect(input, `placeholder of ${label}`).toHaveAttribute('placeholder', label);
    await blur(input);
  }
  for (const msg of [VALIDATION.fullNameRequired, VALIDATION.emailRequired, VALIDATION.passwordRequired, VALIDATION.confirmRequired]) {
    await expect(page.getByText(msg, { exact: true })).toBeVisible();
  }
  await page.getByLabel('Email').fill('not-an-email');
  await blur(page.getByLabel('Email'));
  await expect(page.getByText(VALIDATION.emailInvalid)).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('1234567');
  await blur(page.getByLabel('Password', { exact: true }));
  await expect(page.getByText(VALIDATION.passwordMin)).toBeVisible();
  await expect(page.getByLabel('Full Name')).toHaveAttribute('minlength', '3');
  await page.getByRole('link', { name: 'Log In' }).click();
  await expectPath(page, '/login');
  await expect(page.getByRole('heading', { name: 'Log In' })).toBeVisible();

  // Login: required messages, show/hide toggle, and the failure detail inline.
  await blur(page.getByLabel('Email', { exact: true }));
  await expect(page.getByText(VALIDATION.usernameRequired)).toBeVisible();
  const password = page.getByLabel('Password', { exact: true });
  await blur(password);
  await expect(page.getByText(VALIDATION.passwordRequired)).toBeVisible();
  await expect(password).toHaveAttribute('placeholder', 'Password');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await logInThroughForm(page, uniqueEmail('nobody'), 'wrongpassword');
  await expect(page.getByRole('alert').filter({ hasText: 'Incorrect email or password' })).toBeVisible();
  await expectPath(page, '/login');
  await expect(page.getByRole('link', { name: 'Forgot Password?' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign Up' }).click();
  await expectPath(page, '/signup');
});

test('signing up twice with one email shows the failure toast', async ({ page, user }) => {
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Someone Else');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill('password123');
  await page.getByLabel('Confirm Password').fill('password123');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: TOAST.signUpFailureTitle }).first()).toBeVisible();
  await expectPath(page, '/signup');
});

test('a user deletes their own account from the Danger zone', async ({ userPage: page, user }) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Danger zone' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirmation Required' });
  await expect(dialog.getByText('All your account data will be permanently deleted')).toBeVisible();
  await expect(dialog.getByText('This action cannot be undone.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.accountDeleted);
  await expectPath(page, '/login');
  expect(await storedToken(page)).toBeNull();
  await logInThroughForm(page, user.email, user.password);
  await expect(page.getByRole('alert').filter({ hasText: 'Incorrect email or password' })).toBeVisible();
});

test('changing the password keeps this session and ends the others', async ({ userPage: page, user, api }) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Password' }).click();
  await page.getByLabel('Current Password').fill(user.password);
  await page.getByLabel('New Password').fill('newpassword456');
  await page.getByLabel('Confirm Password').fill('newpassword456');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.passwordUpdated);
  // This tab stored the fresh token the change handed back: a reload stays in the app.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Password' })).toBeVisible();
  await expectPath(page, '/settings');
  // The token from before the change (another device's session) no longer works.
  const res = await api.request.get('/api/v1/users/me', { headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status()).toBe(403);
});

test('logging out ends the session on the server; signing out everywhere ends every session', async ({ page, userPage, user, api }) => {
  const me = async (token: string | null) =>
    (await api.request.get('/api/v1/users/me', { headers: { authorization: `Bearer ${token}` } })).status();

  await userPage.goto('/settings');
  const tabToken = await storedToken(userPage);
  expect(await me(tabToken)).toBe(200);
  await userPage.getByRole('tab', { name: 'Password' }).click();
  const second = await api.token(user.email, user.password);

  // Sign out everywhere (Password tab): this tab goes to the login page, and every other session ends.
  await userPage.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expectToast(userPage, TOAST.successTitle, TOAST.signedOutEverywhere);
  await expectPath(userPage, '/login');
  expect(await me(tabToken)).toBe(403);
  expect(await me(second)).toBe(403);

  // A fresh login, then Log out from the menu: that token is dead on the server too.
  await logInThroughForm(page, user.email, user.password);
  await expectPath(page, '/');
  const fresh = await storedToken(page);
  expect(await me(fresh)).toBe(200);
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expectPath(page, '/login');
  await expect.poll(() => me(fresh)).toBe(403);
});
