// Amazon, the fifth marketplace: a job created with its Create Job checkbox is looked up in batches
// (against the sandbox speaking the Selling Partner API), and the job page's comparison shows the
// books' sales rank; its page lists the rows and its offers drawer says Amazon sends at most 20 offers.
import { expect, expectPath, findRow, test } from '../fixtures';
import { columnValues, createJobInDialog, isbns, settledTable, showProgress, waitForJob } from '../jobs';

test('a job with Amazon shows its sales rank on the job page', async ({ userPage: page, user, api }) => {
  test.setTimeout(90_000);
  const list = isbns(6, 990_100);
  const name = `Amazon ${Date.now().toString(36)}`;
  await createJobInDialog(page, name, ['Amazon', 'Abe Books'], list);

  await page.goto('/jobs');
  const row = await findRow(page, name);
  const link = row.getByRole('link', { name });
  const jobId = Number((await link.getAttribute('href'))?.split('/').pop());
  await waitForJob(api, user.token, jobId);
  await link.click();
  await expectPath(page, `/jobs/${jobId}`);

  await showProgress(page);
  await expect(page.getByRole('region', { name: 'Amazon run' }).getByTestId('progress-percent')).toHaveText('100%');
  const table = await settledTable(page, 'Comparison');
  // Every book the sandbox's catalog ranks has a whole-number rank (a tenth of them carry none).
  const ranks = (await columnValues(table, 'Amazon Sales Rank')).filter((t) => t !== '' && t !== 'N/A');
  expect(ranks.length).toBeGreaterThan(0);
  for (const rank of ranks) expect(rank.replace(/,/g, '')).toMatch(/^\d+$/);

  // The marketplace's own page lists the job's rows; a book's offers say Amazon's limit.
  await page.goto(
    `/amazon?filters=${encodeURIComponent(JSON.stringify([{ field: 'isbn_lookup_job_id', operator: 'equals', value: String(jobId) }]))}`,
  );
  const lookups = await settledTable(page, 'Amazon Price Lookups');
  expect((await columnValues(lookups, 'ISBN')).sort()).toEqual([...list].sort());
  await lookups.locator('tbody tr').first().click();
  const drawer = page.getByRole('dialog', { name: /^Offers for ISBN / });
  await expect(drawer.getByTestId('offers-note')).toHaveText(/at most 20 used offers/);
});
