// Password recovery through the emailed link, and the reset page's rules (docs/requirements.md, Public
// screens).
import { TOAST, VALIDATION } from '../../src/lib/messages';
import { blur, expect, expectPath, expectToast, fillNewPasswordCheckingConfirmation, logInThroughForm, test } from '../fixtures';

test('recover a password through the emailed reset link', async ({ page, api, mailbox, baseURL }) => {
  const user = await api.user('recover', 'Rita Recover');

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expectPath(page, '/recover-password');
  const email = page.getByLabel('Email');
  // Retried: the form can mount again while the route settles its session check, losing a first blur.
  await expect(async () => {
    await blur(email);
    await expect(page.getByText(VALIDATION.emailRequired)).toBeVisible({ timeout: 1000 });
  }).toPass();
  await email.fill(user.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectToast(page, TOAST.recoveryTitle, TOAST.recovery);
  await expect(email, 'the form is reset').toHaveValue('');

  const mail = await mailbox.waitForMail(user.email);
  const link = mail.text.match(/https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>&]+/)?.[0];
  expect(link, `a reset link in the email:\n${mail.text}`).toBeTruthy();
  expect(link!.startsWith(`${baseURL}/reset-password?token=`), `link points at FRONTEND_HOST: ${link}`).toBe(true);

  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await fillNewPasswordCheckingConfirmation(page, 'brandnew789', 'brandnew780');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.passwordUpdated);
  await expectPath(page, '/login');

  await logInThroughForm(page, user.email, 'brandnew789');
  await expect(page.getByRole('heading', { name: 'Hi, Rita Recover' })).toBeVisible();
});

test('without a token, submitting the reset form does nothing', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/')) calls.push(r.url());
  });
  // Counted in the page as they start, so the check below needs no waiting time.
  await page.addInitScript(() => {
    const w = window as unknown as { apiCalls: number };
    w.apiCalls = 0;
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/api/')) w.apiCalls++;
      return fetch(input, init);
    };
  });
  await page.goto('/reset-password');
  await page.getByLabel('New Password').fill('whatever123');
  await page.getByLabel('Confirm Password').fill('whatever123');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  // The submit handler (validation, then the token check) settles within a task; two frames and a
  // task later it has either called the API or done nothing.
  const apiCalls = await page.evaluate(
    () =>
      new Promise<number>((r) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => r((window as unknown as { apiCalls: number }).apiCalls)))),
      ),
  );
  expect(apiCalls).toBe(0);
  await expectPath(page, '/reset-password');
  expect(calls).toEqual([]);
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
});
