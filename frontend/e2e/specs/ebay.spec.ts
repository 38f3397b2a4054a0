// eBay as a marketplace: a job created with its Create Job checkbox, eBay's run and prices on the job
// page, eBay's offers and Open Library's book details (title, author, publisher, year, cover) on a
// book's page, all from the sandbox (its eBay token endpoint and its Open Library copy).
import { MARKETPLACES } from '@app/domain/marketplaces';
import type { BookPublic } from '../../src/client/types.gen';
import { expect, expectPath, test } from '../fixtures';
import { columnValues, createJobInDialog, isbns, settledTable, showAllComparisonColumns, showProgress, waitForJob } from '../jobs';

/** Books no other spec uses (the browser tests share one database). */
const BOOKS = isbns(8, 516_260_000);

test('a job with eBay: its run and prices on the job page, its offers and the book details on a book page', async ({
  userPage: page,
  user,
  api,
}) => {
  test.setTimeout(120_000);
  const ebay = MARKETPLACES.ebay;
  const name = `eBay job ${Date.now().toString(36)}`;

  await createJobInDialog(page, name, [ebay.label, MARKETPLACES.abe_books.label], BOOKS);

  await showAllComparisonColumns(page, api, user.token);
  await page.goto('/jobs');
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/jobs\/\d+(\?|$)/);
  const jobId = Number(new URL(page.url()).pathname.split('/').pop());
  await waitForJob(api, user.token, jobId);

  // eBay's run card reaches 100 %, and the comparison has eBay's price (with shipping) per book.
  await showProgress(page);
  const run = page.getByRole('region', { name: `${ebay.label} run` });
  await expect(run.getByTestId('progress-percent')).toHaveText('100%');
  const comparison = await settledTable(page, 'Comparison');
  const prices = await columnValues(comparison, ebay.label);
  expect(prices.filter((p) => /^\$\d[\d,]*\.\d\d$/.test(p)).length).toBeGreaterThan(0);

  // A book Open Library knows (with a cover) and eBay has offers for: the worker fetched its details.
  const headers = { Authorization: `Bearer ${user.token}` };
  let book: BookPublic | undefined;
  await expect
    .poll(
      async () => {
        for (const isbn of BOOKS) {
          const b = await api.call<BookPublic>('GET', `/api/v1/books/${isbn}`, { headers });
          const answer = b.marketplaces.find((m) => m.marketplace === 'ebay')?.latest;
          if (b.details?.cover_url && answer?.status === 'completed') {
            book = b;
            return true;
          }
        }
        return false;
      },
      { message: 'a book with Open Library details and eBay offers', timeout: 30_000 },
    )
    .toBe(true);
  const chosen = book!;

  // The comparison shows Open Library's title and author; its ISBN opens the book page.
  await page.reload();
  const table = await settledTable(page, 'Comparison');
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: chosen.isbn }) });
  await expect(row).toContainText(chosen.details!.title!);
  await expect(row).toContainText(chosen.details!.authors!);
  await row.getByRole('link', { name: chosen.isbn }).click();
  await expectPath(page, `/books/${chosen.isbn}`);

  await expect(page.getByRole('heading', { level: 2, name: chosen.details!.title! })).toHaveText(chosen.details!.title!);
  await expect(page.getByText(`by ${chosen.details!.authors}`)).toBeVisible();
  await expect(page.getByTestId('book-publication')).toHaveText(
    [chosen.details!.publisher, chosen.details!.publish_year].filter(Boolean).join(', '),
  );
  await expect(page.getByTestId('book-details-source')).toContainText('Book details from Open Library');
  const cover = page.getByRole('img', { name: `Cover of ${chosen.details!.title}` });
  await expect(cover).toBeVisible();
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // eBay's card: its offers, linking out to the listings.
  const card = page.getByRole('region', { name: ebay.label, exact: true });
  await expect(card.locator('[data-status]')).toHaveAttribute('data-status', 'completed');
  const offers = card.getByRole('table', { name: `${ebay.label} offers` });
  await expect(offers.locator('tbody tr').first()).toBeVisible();
  await expect(card.getByTestId('headline-price')).toHaveText(/^\$\d[\d,]*\.\d\d$/);
});
