// Sign-up, login, settings and logout through the UI (spec §2, §4, §5).
import assert from 'node:assert/strict';
import { TOAST, VALIDATION } from '../../src/lib/messages';
import { blur, expectDisabled, expectPath, expectToast, logInThroughForm, openLoggedIn, seed, uniqueEmail } from '../harness/helpers';
import { e2e } from '../harness/test';
import { world } from '../harness/world';

e2e('sign up, log in, edit profile, change password, switch appearance, log out', async ({ page }) => {
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
  await page.getByRole('heading', { name: 'Hi, Ada Lovelace' }).waitFor();
  await page.getByText('Welcome back, nice to see you again!').waitFor();
  await page.getByText('Logged in as').waitFor();
  assert.equal(await page.getByTestId('logged-in-as').textContent(), email);
  assert.equal(await page.evaluate(() => typeof localStorage.getItem('access_token')), 'string');
  assert.equal(await page.getByRole('link', { name: 'Admin' }).count(), 0, 'no Admin entry for ordinary users');

  // User menu → My profile.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'My profile' }).click();
  await expectPath(page, '/settings');
  await page.getByRole('heading', { name: 'User Settings' }).waitFor();
  for (const tab of ['My profile', 'Password', 'Appearance', 'Danger zone']) await page.getByRole('tab', { name: tab }).waitFor();

  // My profile: Save only once something changed; email required.
  const save = page.getByRole('button', { name: 'Save' });
  await expectDisabled(save);
  await page.getByLabel('Full Name').fill('Ada King');
  await expectDisabled(save, false);
  await page.getByLabel('Email').fill('');
  await expectDisabled(save);
  await blur(page.getByLabel('Email'));
  await page.getByText(VALIDATION.emailRequired).waitFor();
  await page.getByLabel('Email').fill(email);
  // Forms validate on blur: leave the field so the message goes (and the buttons settle) first.
  await blur(page.getByLabel('Email'));
  await page.getByText(VALIDATION.emailRequired).waitFor({ state: 'detached' });
  assert.equal(await page.getByLabel('Full Name').getAttribute('maxlength'), '30');
  await save.click();
  await expectToast(page, TOAST.successTitle, TOAST.userUpdated);
  await expectDisabled(save);

  // Password: shared rules, then success.
  await page.getByRole('tab', { name: 'Password' }).click();
  await page.getByLabel('Current Password').fill('password123');
  await page.getByLabel('New Password').fill('short');
  await blur(page.getByLabel('New Password'));
  await page.getByText(VALIDATION.passwordMin).waitFor();
  await page.getByLabel('New Password').fill('newpassword456');
  await page.getByLabel('Confirm Password').fill('different456');
  await blur(page.getByLabel('Confirm Password'));
  await page.getByText(VALIDATION.passwordsDoNotMatch).waitFor();
  await page.getByLabel('Confirm Password').fill('newpassword456');
  await blur(page.getByLabel('Confirm Password'));
  await page.getByText(VALIDATION.passwordsDoNotMatch).waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.passwordUpdated);

  // Appearance: dark is remembered across reloads.
  await page.getByRole('tab', { name: 'Appearance' }).click();
  const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
  assert.equal(await scheme(), 'light');
  await page.getByLabel('Dark Mode').check();
  assert.equal(await scheme(), 'dark');
  await page.reload();
  await page.getByRole('heading', { name: 'User Settings' }).waitFor();
  assert.equal(await scheme(), 'dark');
  await page.getByRole('tab', { name: 'Appearance' }).click();
  await page.getByLabel('Light Mode').check();
  assert.equal(await scheme(), 'light');

  // Log out, then the new password works and the old one does not.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expectPath(page, '/login');
  assert.equal(await page.evaluate(() => localStorage.getItem('access_token')), null);
  await logInThroughForm(page, email, 'password123');
  await page.getByText('Incorrect email or password').waitFor();
  await logInThroughForm(page, email, 'newpassword456');
  await page.getByRole('heading', { name: 'Hi, Ada King' }).waitFor();
});

e2e('sign-up and login forms validate on blur with the spec messages', async ({ page }) => {
  await page.goto('/signup');
  for (const label of ['Full Name', 'Email', 'Password', 'Confirm Password']) {
    const input = page.getByLabel(label, { exact: true });
    assert.equal(await input.getAttribute('placeholder'), label, `placeholder of ${label}`);
    await blur(input);
  }
  for (const msg of [VALIDATION.fullNameRequired, VALIDATION.emailRequired, VALIDATION.passwordRequired, VALIDATION.confirmRequired]) {
    await page.getByText(msg, { exact: true }).waitFor();
  }
  await page.getByLabel('Email').fill('not-an-email');
  await blur(page.getByLabel('Email'));
  await page.getByText(VALIDATION.emailInvalid).waitFor();
  await page.getByLabel('Password', { exact: true }).fill('1234567');
  await blur(page.getByLabel('Password', { exact: true }));
  await page.getByText(VALIDATION.passwordMin).waitFor();
  assert.equal(await page.getByLabel('Full Name').getAttribute('minlength'), '3');
  await page.getByRole('link', { name: 'Log In' }).click();
  await expectPath(page, '/login');

  // Login: required messages, show/hide toggle, and the failure detail inline.
  await blur(page.getByLabel('Email', { exact: true }));
  await page.getByText(VALIDATION.usernameRequired).waitFor();
  const password = page.getByLabel('Password', { exact: true });
  await blur(password);
  await page.getByText(VALIDATION.passwordRequired).waitFor();
  assert.equal(await password.getAttribute('placeholder'), 'Password');
  assert.equal(await password.getAttribute('type'), 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  assert.equal(await password.getAttribute('type'), 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  assert.equal(await password.getAttribute('type'), 'password');
  await logInThroughForm(page, uniqueEmail('nobody'), 'wrongpassword');
  await page.getByRole('alert').filter({ hasText: 'Incorrect email or password' }).waitFor();
  await expectPath(page, '/login');
  await page.getByRole('link', { name: 'Forgot Password?' }).waitFor();
  await page.getByRole('link', { name: 'Sign Up' }).click();
  await expectPath(page, '/signup');
});

e2e('signing up twice with one email shows the failure toast', async ({ page }) => {
  const user = await seed.user('dup');
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Someone Else');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill('password123');
  await page.getByLabel('Confirm Password').fill('password123');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.locator('.mantine-Notification-root').filter({ hasText: TOAST.signUpFailureTitle }).first().waitFor();
  await expectPath(page, '/signup');
});

e2e('a user deletes their own account from the Danger zone', async ({ page }) => {
  const user = await seed.user('selfdelete');
  await openLoggedIn(page, user.token, '/settings');
  await page.getByRole('tab', { name: 'Danger zone' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirmation Required' });
  await dialog.getByText('All your account data will be permanently deleted').waitFor();
  await dialog.getByText('This action cannot be undone.').waitFor();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.accountDeleted);
  await expectPath(page, '/login');
  assert.equal(await page.evaluate(() => localStorage.getItem('access_token')), null);
  await logInThroughForm(page, user.email, user.password);
  await page.getByRole('alert').filter({ hasText: 'Incorrect email or password' }).waitFor();
});

e2e('changing the password keeps this session and ends the others', async ({ page }) => {
  const user = await seed.user('sessions');
  await openLoggedIn(page, user.token, '/settings');
  await page.getByRole('tab', { name: 'Password' }).click();
  await page.getByLabel('Current Password').fill(user.password);
  await page.getByLabel('New Password').fill('newpassword456');
  await page.getByLabel('Confirm Password').fill('newpassword456');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.passwordUpdated);
  // This tab stored the fresh token the change handed back: a reload stays in the app.
  await page.reload();
  await page.getByRole('tab', { name: 'Password' }).waitFor();
  await expectPath(page, '/settings');
  // The token from before the change (another device's session) no longer works.
  const res = await fetch(`${world().baseUrl}/api/v1/users/me`, { headers: { authorization: `Bearer ${user.token}` } });
  assert.equal(res.status, 403);
});
