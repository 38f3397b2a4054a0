// Scheduled re-pricing on a phone-sized job page: the owner sets "Re-price every N days", sees the
// next run, pauses and resumes it, then removes it; a bad interval is refused beside its input.
// Whether a due schedule fires is the integration suite's (backend/test/job-schedule.int.test.ts).
import { expect, expectAccessible, expectToast, test } from '../fixtures';
import { isbnCsv, isbns, seedJob } from '../jobs';

const DAY = 86_400_000;

test('set a schedule on a job page at 390 px, see its next run, pause, resume and remove it', async ({ userPage: page, api, user }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const job = await seedJob(api, user.token, {
    name: `Scheduled ${Date.now().toString(36)}`,
    filename: 'isbns.csv',
    content: isbnCsv(isbns(3, 734_340_000)),
    sources: { alibris: true },
  });
  await page.goto(`/jobs/${job.id}`);
  const section = page.getByRole('region', { name: 'Scheduled re-pricing' });
  const said = section.getByTestId('job-schedule');
  await expect(said).toHaveText(/^Not scheduled/);

  const every = section.getByRole('textbox', { name: 'Re-price every N days' });
  await every.fill('400');
  await section.getByRole('button', { name: 'Set schedule' }).click();
  await expect(section.getByText('Enter a whole number of days from 1 to 365')).toBeVisible();

  await every.fill('3');
  const before = Date.now();
  await section.getByRole('button', { name: 'Set schedule' }).click();
  await expectToast(page, 'Success!', 'The job will be re-priced every 3 days.');
  await expect(said).toHaveText(/^Re-priced every 3 days\. Next run: .+\. Set by you\.$/);
  // The next run the page shows is the one the API holds: three days from now.
  const saved = await api.call<{ schedule: { next_run_at: string } }>('GET', `/api/v1/jobs/${job.id}`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  const next = new Date(saved.schedule.next_run_at).getTime();
  expect(next).toBeGreaterThanOrEqual(before + 3 * DAY - 60_000);
  expect(next).toBeLessThanOrEqual(Date.now() + 3 * DAY);
  // As the browser writes that instant (its locale and time zone).
  const nextShown = await page.evaluate((ms) => new Date(ms).toLocaleString(), next);
  await expect(said).toContainText(`Next run: ${nextShown}.`);

  await section.getByRole('button', { name: 'Pause' }).click();
  await expectToast(page, 'Success!', 'Scheduled re-pricing paused.');
  await expect(said).toHaveText(/^Paused \(every 3 days\)/);
  await section.getByRole('button', { name: 'Resume' }).click();
  await expectToast(page, 'Success!', 'Scheduled re-pricing resumed.');
  await expect(said).toContainText(`Next run: ${nextShown}.`);

  // Nothing of the page runs off the side of a phone, and the section reads right to assistive technology.
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll at 390 px').toBeLessThanOrEqual(390);
  await expectAccessible(page, 'the job page’s schedule', 'section[aria-labelledby="schedule-title"]');

  await section.getByRole('button', { name: 'Remove schedule' }).click();
  await expectToast(page, 'Success!', 'Scheduled re-pricing removed.');
  await expect(said).toHaveText(/^Not scheduled/);
});
