// Profit after fees: a superuser changes AbeBooks' commission on the Fees page (a bad figure is
// refused beside its input), sets a job's cost from a pallet and sees the comparison's Estimated
// Profit follow both; a normal user reads the schedules without a way to change them.
import { FEE_DEFAULTS, estimatedProfit, type FeeSchedule } from '@app/domain/fees';
import { MARKETPLACE_LIST, type MarketplaceId } from '@app/domain/marketplaces';
import type { Locator, Page } from '@playwright/test';
import { ADMIN, type Api, expect, expectAccessible, expectToast, test } from '../fixtures';
import { MIXED, columnValues, headers, seedJob, settledTable, waitForJob } from '../jobs';

/** "$1,234.50" / "-$2.10" → number; N/A → null. */
const amount = (text: string) => (text === 'N/A' ? null : Number(text.replace(/[^0-9.-]/g, '')));
const byLabel = (label: string) => MARKETPLACE_LIST.find((m) => m.label === label)?.id as MarketplaceId;

/** Every row's estimated profit as the page shows it, beside what the fees in force make of its best price. */
async function profitsAgainst(table: Locator, fees: (id: MarketplaceId) => FeeSchedule, cost: number | null) {
  const best = (await columnValues(table, 'Best Price')).map(amount);
  const source = await columnValues(table, 'Best Source');
  const shown = (await columnValues(table, 'Estimated Profit')).map(amount);
  const expected = best.map((b, i) => (b === null ? null : estimatedProfit(b, fees(byLabel(source[i] ?? '')), cost)));
  return { shown, expected };
}

async function expectProfits(page: Page, fees: (id: MarketplaceId) => FeeSchedule, cost: number | null) {
  await expect(async () => {
    const table = await settledTable(page, 'Comparison');
    const { shown, expected } = await profitsAgainst(table, fees, cost);
    expect(shown.length).toBe(MIXED.report.isbns_accepted);
    expect(expected.some((e) => e !== null)).toBe(true);
    shown.forEach((s, i) => {
      if (expected[i] === null) expect(s, `row ${i + 1}`).toBeNull();
      else expect(Math.abs((s ?? Number.NaN) - (expected[i] ?? 0)), `row ${i + 1}: ${s} vs ${expected[i]}`).toBeLessThan(0.006);
    });
  }).toPass({ timeout: 15_000 });
}

/** Back to the defaults whatever the test did: every spec shares one database. */
async function resetAbeBooks(api: Api) {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const res = await api.request.fetch('/api/v1/fee-schedules/abe-books', {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
}

test.afterEach(async ({ api }) => {
  await resetAbeBooks(api);
});

test('a superuser changes AbeBooks’ commission and a job’s pallet cost, and the estimated profit follows', async ({
  adminPage: page,
  api,
}) => {
  test.setTimeout(120_000);
  const token = await api.token(ADMIN.email, ADMIN.password);
  const job = await seedJob(api, token, { name: `Fees ${Date.now().toString(36)}` });
  await waitForJob(api, token, job.id);
  const defaults = (id: MarketplaceId) => FEE_DEFAULTS[id] as FeeSchedule;

  // The comparison starts from the defaults and no cost.
  await page.goto(`/jobs/${job.id}`);
  let table = await settledTable(page, 'Comparison');
  const cols = await headers(table);
  // In the comparison's default columns, right after where the book sells best.
  expect(cols.indexOf('Estimated Profit')).toBe(cols.indexOf('Best Source') + 1);
  await expectProfits(page, defaults, null);

  // The Fees page: the defaults with their sources; a figure out of range is refused beside its input.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fees' }).click();
  const fees = await settledTable(page, 'Fee schedules');
  const abeRow = fees.getByRole('row').filter({ hasText: 'Abe Books' });
  await expect(abeRow).toContainText('8 %');
  await expect(abeRow).toContainText('Default:');
  await expect(abeRow).toContainText('2008-04-28');
  await abeRow.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Abe Books fees' });
  const percent = dialog.getByRole('textbox', { name: 'Commission (%)' });
  await percent.fill('150');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Commission (%) must be between 0 and 100')).toBeVisible();
  await percent.fill('20');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Success!', 'Abe Books fees saved.');
  await expect(dialog).toBeHidden();
  await expect(abeRow).toContainText('20 %');
  await expect(abeRow).toContainText('Set by Administrator on');

  // Back on the job, AbeBooks' best prices earn less; then a pallet of 10 books for $25.
  const raised = (id: MarketplaceId) => (id === 'abe_books' ? { ...defaults(id), percent: 20 } : defaults(id));
  await page.goto(`/jobs/${job.id}`);
  await expectProfits(page, raised, null);
  const cost = page.getByRole('region', { name: 'Cost per book' });
  await cost.getByText('Pallet cost', { exact: true }).click();
  // Typed as a dealer writes it; a negative amount is refused before anything is sent.
  const palletBox = cost.getByRole('textbox', { name: 'Pallet cost (USD)' });
  await palletBox.fill('-25');
  await cost.getByRole('button', { name: 'Save cost' }).click();
  await expect(cost.getByText('A cost cannot be negative')).toBeVisible();
  await palletBox.fill('$25');
  await expect(cost.getByText(`Pallet $25.00 ÷ ${MIXED.report.isbns_accepted} books = $2.50 per book.`)).toBeVisible();
  await cost.getByRole('button', { name: 'Save cost' }).click();
  await expectToast(page, 'Success!', 'Cost per book saved: $2.50.');
  await expect(cost.getByTestId('job-cost')).toHaveText(
    `Pallet $25.00 ÷ ${MIXED.report.isbns_accepted} books = $2.50 per book, subtracted from every Estimated Profit.`,
  );
  await expectProfits(page, raised, 2.5);

  // A cost above every sale makes every profit a loss, shown negative.
  await cost.getByText('Per book', { exact: true }).click();
  await cost.getByRole('textbox', { name: 'Cost per book (USD)' }).fill('1000');
  await cost.getByRole('button', { name: 'Save cost' }).click();
  await expectToast(page, 'Success!', 'Cost per book saved: $1,000.00.');
  await expectProfits(page, raised, 1000);
  table = await settledTable(page, 'Comparison');
  const losses = (await columnValues(table, 'Estimated Profit')).filter((t) => t !== 'N/A');
  expect(losses.length).toBeGreaterThan(0);
  for (const t of losses) expect(t).toMatch(/^-\$/);
  await expectAccessible(page, 'job page with losses', 'main');
});

test('a normal user reads the fee schedules but cannot change them', async ({ userPage: page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fees' }).click();
  const fees = await settledTable(page, 'Fee schedules');
  expect(await columnValues(fees, 'Marketplace')).toEqual(['Abe Books', 'Biblio', 'Alibris', 'Amazon', 'eBay']);
  expect(await columnValues(fees, 'Commission')).toEqual(['8 %', '15 %', '20 %', '15 %', '15.3 %']);
  await expect(fees.getByRole('row').filter({ hasText: 'Alibris' })).toContainText('uncertain');
  expect(await headers(fees)).not.toContain('Actions');
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reset' })).toHaveCount(0);
  await expectAccessible(page, 'fees page');
});
