// A job on all six marketplaces at once: every run reaches 100 %, and the job page's comparison shows
// Amazon's sales rank and eBay's prices beside the four original marketplaces' (all from the sandbox).
import { MARKETPLACE_LIST, MARKETPLACES } from '@app/domain/marketplaces';
import { expect, test } from '../fixtures';
import { columnValues, createJobInDialog, isbns, settledTable, showAllComparisonColumns, showProgress, waitForJob } from '../jobs';

/** Books no other spec uses (the browser tests share one database). */
const BOOKS = isbns(6, 717_310_000);

test('a job on six marketplaces shows Amazon’s sales rank and eBay’s prices on the job page', async ({ userPage: page, user, api }) => {
  test.setTimeout(120_000);
  expect(MARKETPLACE_LIST).toHaveLength(6);
  const name = `Six ${Date.now().toString(36)}`;
  await createJobInDialog(
    page,
    name,
    MARKETPLACE_LIST.map((m) => m.label),
    BOOKS,
  );

  await showAllComparisonColumns(page, api, user.token);
  await page.goto('/jobs');
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/jobs\/\d+(\?|$)/);
  const jobId = Number(new URL(page.url()).pathname.split('/').pop());
  await waitForJob(api, user.token, jobId);
  await page.reload();

  await showProgress(page);
  for (const m of MARKETPLACE_LIST) {
    await expect(page.getByRole('region', { name: `${m.label} run` }).getByTestId('progress-percent'), m.label).toHaveText('100%');
  }
  const comparison = await settledTable(page, 'Comparison');
  const ranks = (await columnValues(comparison, 'Amazon Sales Rank')).filter((t) => /\d/.test(t));
  expect(ranks.length).toBeGreaterThan(0);
  for (const rank of ranks) expect(rank.replace(/,/g, '')).toMatch(/^\d+$/);
  const ebayPrices = await columnValues(comparison, MARKETPLACES.ebay.label);
  expect(ebayPrices.filter((p) => /^\$\d[\d,]*\.\d\d$/.test(p)).length).toBeGreaterThan(0);
});
