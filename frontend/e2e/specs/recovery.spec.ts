// Password recovery through the emailed link, and the reset page's rules (spec §2, §4).
import assert from 'node:assert/strict';
import { TOAST, VALIDATION } from '../../src/lib/messages';
import { blur, expectPath, expectToast, logInThroughForm, seed } from '../harness/helpers';
import { e2e } from '../harness/test';
import { world } from '../harness/world';

e2e('recover a password through the emailed reset link', async ({ page, baseUrl }) => {
  const user = await seed.user('recover', 'Rita Recover');
  const since = Date.now();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expectPath(page, '/recover-password');
  const email = page.getByLabel('Email');
  await blur(email);
  await page.getByText(VALIDATION.emailRequired).waitFor();
  await email.fill(user.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectToast(page, TOAST.recoveryTitle, TOAST.recovery);
  assert.equal(await email.inputValue(), '', 'the form is reset');

  const mail = await world().mail.waitFor(user.email, { since });
  const link = mail.text.match(/https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>&]+/)?.[0];
  assert.ok(link, `a reset link in the email:\n${mail.text}`);
  assert.ok(link.startsWith(`${baseUrl}/reset-password?token=`), `link points at FRONTEND_HOST: ${link}`);

  await page.goto(link);
  await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
  await page.getByLabel('New Password').fill('brandnew789');
  await page.getByLabel('Confirm Password').fill('brandnew780');
  await blur(page.getByLabel('Confirm Password'));
  await page.getByText(VALIDATION.passwordsDoNotMatch).waitFor();
  await page.getByLabel('Confirm Password').fill('brandnew789');
  await blur(page.getByLabel('Confirm Password'));
  await page.getByText(VALIDATION.passwordsDoNotMatch).waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.passwordUpdated);
  await expectPath(page, '/login');

  await logInThroughForm(page, user.email, 'brandnew789');
  await page.getByRole('heading', { name: 'Hi, Rita Recover' }).waitFor();
});

e2e('without a token, submitting the reset form does nothing', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/')) calls.push(r.url());
  });
  await page.goto('/reset-password');
  await page.getByLabel('New Password').fill('whatever123');
  await page.getByLabel('Confirm Password').fill('whatever123');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await page.waitForTimeout(500);
  await expectPath(page, '/reset-password');
  assert.deepEqual(calls, []);
  assert.equal(await page.locator('.mantine-Notification-root').count(), 0);
});
