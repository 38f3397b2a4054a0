// Job control in the browser: cancel a running job and see it Cancelled, retry what failed or was
// stopped until the worker answers it, re-price a finished job and see it run again, delete a job
// after confirming. The jobs come through the API; the actions through the jobs table's menu.
import type { Page } from '@playwright/test';
import type { JobPublic } from '../../src/client/types.gen';
import { TOAST } from '../../src/lib/messages';
import { REFUSED_ONCE_ISBN } from '../app-env';
import { type Api, expect, expectToast, test } from '../fixtures';
import { isbnCsv as csv, isbns, seedJob, settledTable, waitForJob } from '../jobs';

const readJob = (api: Api, token: string, id: number) =>
  api.call<JobPublic>('GET', `/api/v1/jobs/${id}`, { headers: { Authorization: `Bearer ${token}` } });

/** The statuses of the job's lookups on one marketplace page's API. */
async function statuses(api: Api, token: string, slug: string, id: number): Promise<string[]> {
  const page = await api.call<{ data: { lookup_status: string }[] }>('POST', `/api/v1/${slug}/price-lookups?limit=100`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { filters: [{ field: 'isbn_lookup_job_id', operator: 'equals', value: String(id) }] },
  });
  return page.data.map((r) => r.lookup_status).sort();
}

/** Opens /jobs and the actions menu of the job, and picks `item`. */
async function jobAction(page: Page, jobId: number, item: string) {
  if (!page.url().endsWith('/jobs')) await page.goto('/jobs');
  await settledTable(page, 'Jobs');
  await page.getByRole('button', { name: `Actions for job ${jobId}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

const jobRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Jobs', exact: true }).getByRole('row').filter({ hasText: name });

test('cancel a running job: it shows Cancelled; retry runs what it stopped', async ({ userPage: page, api, user }) => {
  test.setTimeout(90_000);
  // Alibris is asked at 2 requests/s: 200 ISBNs keep the job running while the test acts.
  const job = await seedJob(api, user.token, {
    name: 'E2E cancel',
    filename: 'many.csv',
    content: csv(isbns(200, 700_000)),
    sources: { alibris: true },
  });
  await jobAction(page, job.id, 'Cancel job');
  const dialog = page.getByRole('dialog', { name: 'Cancel job' });
  await expect(dialog).toContainText('lookups already in progress finish');
  await dialog.getByRole('button', { name: 'Cancel job' }).click();
  await expectToast(page, TOAST.successTitle, 'Job cancelled:');
  await expect(jobRow(page, 'E2E cancel').getByText('Cancelled', { exact: true })).toBeVisible();
  // The stopped lookups count as done: the progress reaches 100 % once the few in flight are answered.
  await expect(jobRow(page, 'E2E cancel').getByTestId('progress-percent')).toHaveText('100%', { timeout: 20_000 });
  expect(await statuses(api, user.token, 'alibris', job.id)).toContain('cancelled');
  // A cancelled job has nothing to cancel any more.
  await page.getByRole('button', { name: `Actions for job ${job.id}`, exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Cancel job' })).toBeDisabled();
  await page.keyboard.press('Escape');

  // Retry resumes the cancelled lookups: the job runs again and is no longer shown as cancelled.
  await jobAction(page, job.id, 'Retry failed');
  const retry = page.getByRole('dialog', { name: 'Retry failed lookups' });
  await expect(retry.getByRole('textbox', { name: 'Marketplaces' })).toHaveValue(/^All marketplaces \(0 failed, \d+ cancelled\)$/);
  await retry.getByRole('button', { name: 'Retry' }).click();
  await expectToast(page, TOAST.successTitle, 'queued again.');
  await expect(jobRow(page, 'E2E cancel').getByText('Cancelled', { exact: true })).toHaveCount(0);
  expect((await readJob(api, user.token, job.id)).alibris.processed_isbns).toBeLessThan(200);
  // Stop it again so it does not hold the shared worker.
  await jobAction(page, job.id, 'Cancel job');
  await page.getByRole('dialog', { name: 'Cancel job' }).getByRole('button', { name: 'Cancel job' }).click();
  await expect(jobRow(page, 'E2E cancel').getByText('Cancelled', { exact: true })).toBeVisible();
});

test('retry a failed lookup of one marketplace until the worker answers it', async ({ userPage: page, api, user }) => {
  const job = await seedJob(api, user.token, {
    name: 'E2E retry',
    filename: 'refused.csv',
    content: csv([REFUSED_ONCE_ISBN, ...isbns(2, 710_000)]),
    sources: { abe_books: true },
  });
  await waitForJob(api, user.token, job.id);
  expect(await statuses(api, user.token, 'abe-books', job.id)).toContain('failed');

  await jobAction(page, job.id, 'Retry failed');
  const dialog = page.getByRole('dialog', { name: 'Retry failed lookups' });
  const choice = dialog.getByRole('textbox', { name: 'Marketplaces' });
  await expect(choice).toHaveValue('All marketplaces (1 failed)');
  await choice.click();
  await page.getByRole('option', { name: 'Abe Books (1 failed)' }).click();
  await dialog.getByRole('button', { name: 'Retry' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.jobRetried(1));
  await waitForJob(api, user.token, job.id);
  expect(await statuses(api, user.token, 'abe-books', job.id)).not.toContain('failed');
  // Nothing failed any more: the dialog says so and its Retry is disabled.
  await jobAction(page, job.id, 'Retry failed');
  await expect(dialog.getByRole('textbox', { name: 'Marketplaces' })).toHaveValue('All marketplaces (0 failed)');
  await expect(dialog.getByRole('button', { name: 'Retry' })).toBeDisabled();
});

test('re-price a finished job, then delete it after confirming', async ({ userPage: page, api, user }) => {
  const job = await seedJob(api, user.token, {
    name: 'E2E reprice',
    filename: 'two.csv',
    content: csv(isbns(2, 720_000)),
    sources: { abe_books: true, biblio: true },
  });
  await waitForJob(api, user.token, job.id);
  const before = await readJob(api, user.token, job.id);
  expect(before.repriced_at).toBeNull();

  await jobAction(page, job.id, 'Re-price');
  const dialog = page.getByRole('dialog', { name: 'Re-price job' });
  await expect(dialog).toContainText('The current prices stay visible until the new ones arrive.');
  await dialog.getByRole('button', { name: 'Re-price' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.jobRepriced(4));
  await waitForJob(api, user.token, job.id);
  const after = await readJob(api, user.token, job.id);
  expect(after.repriced_at).not.toBeNull();
  expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
  await expect(jobRow(page, 'E2E reprice').getByTestId('progress-percent').first()).toHaveText('100%');

  await jobAction(page, job.id, 'Delete job');
  const confirm = page.getByRole('dialog', { name: 'Delete Job' });
  await expect(confirm).toContainText(`Job "E2E reprice" (ID ${job.id}) and all its lookups will be permanently deleted.`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.deleted('job'));
  await expect(jobRow(page, 'E2E reprice')).toHaveCount(0);
  const gone = await api.request.get(`/api/v1/jobs/${job.id}`, { headers: { Authorization: `Bearer ${user.token}` } });
  expect(gone.status()).toBe(404);
});
