// Price history in the browser: a job re-priced while the sandbox's prices drift (the browser run's
// app has SANDBOX_PRICE_DRIFT on: the second request for an ISBN sees every price 20 % lower) keeps
// the earlier look and shows on its page how each price moved since, and the dealer filters the
// rows whose best price dropped.
import { expect, expectAccessible, test } from '../fixtures';
import {
  columnValues,
  expectRowCount,
  headers,
  isbnCsv,
  isbns,
  seedJob,
  settledTable,
  showAllComparisonColumns,
  waitForJob,
} from '../jobs';

/** "$1,234.50" → 1234.5; N/A → null. */
const amount = (text: string) => (text === 'N/A' ? null : Number(text.replace(/[^0-9.-]/g, '')));

test('a re-priced job shows the change since the previous look, and filters the rows whose best price dropped', async ({
  api,
  user,
  userPage: page,
}) => {
  test.setTimeout(90_000);
  const list = isbns(6, 515_151_000);
  const job = await seedJob(api, user.token, {
    name: 'Drifting prices',
    content: isbnCsv(list),
    filename: 'drift.csv',
    sources: { alibris: true },
  });
  await waitForJob(api, user.token, job.id);
  await showAllComparisonColumns(page, api, user.token);
  await page.goto(`/jobs/${job.id}`);
  let table = await settledTable(page, 'Comparison');
  await expectRowCount(table, list.length);
  // Looked at once: nothing to compare with yet.
  expect(await columnValues(table, 'Alibris Change')).toEqual(list.map(() => 'N/A'));
  expect(await columnValues(table, 'Best Price Change')).toEqual(list.map(() => 'N/A'));
  const before = (await columnValues(table, 'Alibris')).map(amount);
  const priced = before.filter((p) => p !== null).length;
  expect(priced).toBeGreaterThan(0);

  // Re-price from the job's actions menu; the page follows the worker by itself.
  await page.getByRole('button', { name: `Actions for job ${job.id}`, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Re-price' }).click();
  await page.getByRole('dialog', { name: 'Re-price job' }).getByRole('button', { name: 'Re-price' }).click();

  // Each priced row now reads ▼ and the amount, and says "down $…" to a screen reader.
  const changeCells = table.locator(`tbody tr td:nth-child(${(await headers(table)).indexOf('Alibris Change') + 1})`);
  await expect(changeCells.getByText(/^▼ \$\d+\.\d{2}$/)).toHaveCount(priced, { timeout: 30_000 });
  await expect(changeCells.getByText(/^down \$\d+\.\d{2}$/)).toHaveCount(priced);
  // Coloured as well as shaped: a drop reads in Mantine's red text colour, not the body's.
  const drop = changeCells.getByText(/^▼ \$\d+\.\d{2}$/).first();
  const colours = await drop.evaluate((el) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--mantine-color-red-text)';
    document.body.append(probe);
    const red = getComputedStyle(probe).color;
    probe.remove();
    return { cell: getComputedStyle(el.parentElement as Element).color, red, body: getComputedStyle(document.body).color };
  });
  expect(colours.cell).toBe(colours.red);
  expect(colours.cell).not.toBe(colours.body);
  await waitForJob(api, user.token, job.id);
  table = await settledTable(page, 'Comparison');
  const after = (await columnValues(table, 'Alibris')).map(amount);
  for (const [i, was] of before.entries()) {
    if (was === null) continue;
    expect(after[i], list[i]).toBeLessThan(was);
  }

  // "Best price dropped by at least one cent": every priced row.
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Best Price Change' });
  await page.getByLabel('Filter 1 operator').selectOption({ label: 'less or equal' });
  await page.getByLabel('Filter 1 value').fill('-0.01');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/best_price_change/);
  table = await settledTable(page, 'Comparison');
  await expectRowCount(table, priced);
  // The comparison alone: the re-price toast may still be up (its close button is the notification library's).
  await expectAccessible(page, 'comparison with price changes', 'section[aria-labelledby="comparison-title"]');
});
