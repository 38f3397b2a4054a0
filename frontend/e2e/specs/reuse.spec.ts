// Reuse of recent answers (docs/features/history.md): a list uploaded again is filled from
// the answers the marketplace gave the first time, and the page says so with the answer's age.
import { MARKETPLACES } from '@app/domain/marketplaces';
import { expect, test } from '../fixtures';
import { expectRowCount, isbnCsv as csv, isbns, seedJob, settledTable, waitForJob } from '../jobs';

test('an overlapping list is filled from the first answers and marked reused with their age', async ({ api, user, userPage: page }) => {
  test.setTimeout(90_000);
  const m = MARKETPLACES.alibris;
  const first = isbns(6, 424_242_000);
  const overlap = first.slice(0, 4);
  const a = await seedJob(api, user.token, { name: 'first list', content: csv(first), filename: 'first.csv', sources: { alibris: true } });
  await waitForJob(api, user.token, a.id);
  const b = await seedJob(api, user.token, {
    name: 'second list',
    content: csv([...overlap, ...isbns(2, 424_243_000)]),
    filename: 'second.csv',
    sources: { alibris: true },
  });
  await waitForJob(api, user.token, b.id);

  const filters = encodeURIComponent(JSON.stringify([{ field: 'isbn_lookup_job_id', operator: 'equals', value: String(b.id) }]));
  await page.goto(`/${m.slug}?filters=${filters}`);
  const table = await settledTable(page, m.title);
  await expectRowCount(table, 6);
  // The four ISBNs of the first list carry the marker, the two new ones do not.
  const hints = table.getByTestId('reused-hint');
  await expect(hints).toHaveCount(4);
  for (const hint of await hints.all()) {
    await expect(hint).toHaveText(/^reused · (just now|\d+ min ago)$/);
    await expect(hint).toHaveAttribute('title', /^Answered .+; reused instead of a new request$/);
  }
  for (const isbn of overlap) await expect(table.locator('tbody tr', { hasText: isbn }).getByTestId('reused-hint')).toBeVisible();

  // The offers drawer says so too.
  await table.locator('tbody tr', { hasText: overlap[0]! }).click();
  const drawer = page.getByRole('dialog', { name: `Offers for ISBN ${overlap[0]}` });
  await expect(drawer.getByText('Filled from an earlier answer for this ISBN instead of a new request to the marketplace.')).toBeVisible();
  await expect(drawer.getByTestId('reused-hint')).toHaveText(/^reused · /);
  await expect(drawer.getByText('Attempts: 0')).toBeVisible();
});
