// A book's own page: opened from an ISBN cell (a marketplace's table, a job's comparison) and from
// the header's search box (any form of an ISBN; an unrecognised code says why and stays), a book
// never looked up priced from its page, and its price history surviving a re-price of its job.
import { bookJobName } from '@app/domain/book';
import { ISBN_REJECTION } from '@app/domain/isbn';
import { MARKETPLACE_LIST, MARKETPLACES } from '@app/domain/marketplaces';
import type { JobCreated } from '../../src/client/types.gen';
import { BOOK_TEXT } from '../../src/lib/messages';
import { expect, expectAccessible, expectPath, test } from '../fixtures';
import { MIXED, isbns, seedJob, settledTable, waitForJob } from '../jobs';

/** Books no other spec uses (the browser tests share one database). */
const [NEVER_PRICED, REPRICED] = isbns(2, 515_150_000) as [string, string];

const KNOWN_ISBN10_HYPHENATED = '0-13-145757-8'; // MIXED.knownIsbn as a hyphenated ISBN-10

test('an ISBN cell opens its book: title, ISBNs, each marketplace’s latest answer with offers, the jobs with it', async ({
  userPage: page,
  user,
  api,
}) => {
  test.setTimeout(120_000);
  const name = `Book cells ${Date.now().toString(36)}`;
  const job = await seedJob(api, user.token, { name });
  await waitForJob(api, user.token, job.id);

  // From a marketplace's table.
  const m = MARKETPLACES.abe_books;
  await page.goto(`/${m.slug}`);
  const table = await settledTable(page, m.title);
  await table.getByRole('link', { name: MIXED.knownIsbn }).first().click();
  await expectPath(page, `/books/${MIXED.knownIsbn}`);
  await expect(page.getByTestId('book-isbns')).toHaveText(`ISBN-13 ${MIXED.knownIsbn} · ISBN-10 0131457578`);
  // Every marketplace the job asked answered: a card each, with its status and its offers or "No offers."
  for (const mp of MARKETPLACE_LIST) {
    const card = page.getByRole('region', { name: mp.label, exact: true });
    await expect(card.locator('[data-status]'), mp.label).toBeVisible();
    if ((await card.locator('[data-status]').getAttribute('data-status')) === 'completed' && mp.id !== 'pallet_iq') {
      const offers = card.getByRole('table', { name: `${mp.label} offers` });
      await expect(offers.locator('tbody tr').first()).toBeVisible();
      // Money reads with its currency.
      await expect(card.getByTestId('headline-price')).toHaveText(/^\$\d[\d,]*\.\d\d$/);
    }
  }
  // AbeBooks' offers link out to their listings; every field of every offer is one click away.
  const abe = page.getByRole('region', { name: 'Abe Books', exact: true });
  if ((await abe.locator('[data-status]').getAttribute('data-status')) === 'completed') {
    await expect(abe.getByRole('link', { name: 'Open listing' }).first()).toHaveAttribute('href', /^https:\/\//);
    await abe.getByRole('button', { name: 'All details' }).click();
    await expect(
      abe.getByRole('table', { name: 'Abe Books offers, all details' }).getByRole('columnheader', { name: 'Vendor Name' }),
    ).toBeVisible();
  }
  // The job that included it links to its page.
  const jobs = page.getByRole('list', { name: 'Jobs with this book' });
  await expect(jobs.getByRole('link', { name })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Price history' })).toBeVisible();
  await expectAccessible(page, 'book page');

  // From the job's comparison, back on the same page.
  await jobs.getByRole('link', { name }).click();
  await expectPath(page, `/jobs/${job.id}`);
  const comparison = await settledTable(page, 'Comparison');
  await comparison.getByRole('link', { name: MIXED.knownIsbn }).click();
  await expectPath(page, `/books/${MIXED.knownIsbn}`);
  await expect(page.getByTestId('book-isbns')).toBeVisible();
});

test('the header search opens a book from a hyphenated ISBN-10 and says why a code is not an ISBN', async ({ userPage: page }) => {
  await page.goto('/');
  const search = page.getByRole('textbox', { name: BOOK_TEXT.searchLabel });
  await search.fill(KNOWN_ISBN10_HYPHENATED);
  await search.press('Enter');
  await expectPath(page, `/books/${MIXED.knownIsbn}`);
  await expect(page.getByTestId('book-isbns')).toContainText(`ISBN-13 ${MIXED.knownIsbn}`);

  // A wrong check digit: the reason beside the box, and the page stays.
  await search.fill('978-0-13-145757-8');
  await search.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: ISBN_REJECTION.isbn13Check })).toBeVisible();
  await expect(search).toHaveAttribute('aria-invalid', 'true');
  await expectPath(page, `/books/${MIXED.knownIsbn}`);
  // Typing again clears it.
  await search.fill('9780131457577');
  await expect(page.getByRole('alert').filter({ hasText: ISBN_REJECTION.isbn13Check })).toHaveCount(0);

  // On a phone the box fits the header beside the menu buttons.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(search).toBeVisible();
  const box = (await search.boundingBox())!;
  expect(box.x >= 0 && box.x + box.width <= 390, `search box within the screen (${box.x}..${box.x + box.width})`).toBe(true);
  expect(box.width).toBeGreaterThan(120);
  await search.fill('hello');
  await search.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: ISBN_REJECTION.notAnIsbn })).toBeVisible();
  await expectAccessible(page, 'header search with its error');
});

test('a book never looked up says so; Price it now prices it on its page', async ({ userPage: page }) => {
  test.setTimeout(120_000);
  const isbn = NEVER_PRICED;
  await page.goto(`/books/${isbn}`);
  await expect(page.getByText(BOOK_TEXT.neverLookedUp)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Jobs with this book' })).toHaveCount(0);
  await expectAccessible(page, 'book never looked up');
  // Every marketplace is ticked, as Create Job would; leave PalletIQ out.
  const choice = page.getByRole('group', { name: 'Marketplaces to ask' });
  for (const m of MARKETPLACE_LIST) await expect(choice.getByRole('checkbox', { name: m.label })).toBeChecked();
  await choice.getByRole('checkbox', { name: 'PalletIQ' }).uncheck();
  await page.getByRole('button', { name: 'Price it now' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'Priced' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(BOOK_TEXT.neverLookedUp)).toHaveCount(0);
  for (const m of MARKETPLACE_LIST.filter((x) => x.id !== 'pallet_iq')) {
    await expect(page.getByRole('region', { name: m.label, exact: true }).locator('[data-status]'), m.label).toBeVisible();
  }
  await expect(page.getByRole('region', { name: 'PalletIQ', exact: true })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Jobs with this book' }).getByRole('link', { name: bookJobName(isbn) })).toBeVisible();

  // The jobs page leaves one-book lookups out until asked, and remembers the choice.
  await page.goto('/jobs');
  const jobsTable = page.getByRole('table');
  await expect(jobsTable).toBeVisible();
  await expect(jobsTable.getByRole('link', { name: bookJobName(isbn) })).toHaveCount(0);
  await page.getByRole('switch', { name: 'Show one-book lookups' }).check();
  await expect(jobsTable.getByRole('link', { name: bookJobName(isbn) })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Show one-book lookups' })).toBeChecked();
  await expect(page.getByRole('table').getByRole('link', { name: bookJobName(isbn) })).toBeVisible();

  // Priced again at once: the recent answers are reused, and the page says so rather than "asked now".
  await page.goto(`/books/${isbn}`);
  await page.getByRole('group', { name: 'Marketplaces to ask' }).getByRole('checkbox', { name: 'PalletIQ' }).uncheck();
  await page.getByRole('button', { name: 'Price it now' }).click();
  const reusedStatus = page.getByRole('status').filter({ hasText: 'gave their recent answer again' });
  await expect(reusedStatus).toBeVisible({ timeout: 60_000 });
  await expect(reusedStatus).toContainText('Abe Books');
  // Ask the marketplaces now: every one is asked, none reused.
  await reusedStatus.getByRole('button', { name: 'Ask the marketplaces now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Priced: every marketplace asked now' })).toBeVisible({ timeout: 60_000 });
});

test('a book’s price history survives a re-price of its job: two observations per marketplace; its rank is charted, with Keepa’s history', async ({
  userPage: page,
  user,
  api,
}) => {
  test.setTimeout(120_000);
  const isbn = REPRICED;
  const auth = { headers: { Authorization: `Bearer ${user.token}` } };
  const job = await api.call<JobCreated>('POST', `/api/v1/books/${isbn}/price`, { ...auth, data: {} });
  await waitForJob(api, user.token, job.id);
  await api.call('POST', `/api/v1/jobs/${job.id}/reprice`, auth);
  await waitForJob(api, user.token, job.id);

  await page.goto(`/books/${isbn}`);
  const history = page.getByRole('table', { name: 'Price history' });
  for (const m of MARKETPLACE_LIST) {
    await expect(history.locator(`tr[data-marketplace="${m.id}"] td`).nth(1), m.label).toHaveText('2');
  }
  // Keepa's points (the sandbox's Keepa knows this ISBN) reach back about two years before our first look.
  const keepaRow = history.locator('tr[data-marketplace="keepa"]');
  await expect(async () => {
    await page.reload();
    await expect(keepaRow).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  expect(Number(await keepaRow.locator('td').nth(1).innerText())).toBeGreaterThan(100);
  // Amazon's sales rank is charted beside the price on its own axis (log scale, best rank on top).
  const chart = page.getByTestId('history-chart');
  await expect(chart).toHaveAttribute('data-ranked', 'true');
  await expect(chart.getByText('Sales rank', { exact: true }).first()).toBeVisible();
  const rankTicks = chart.locator('svg').getByText(/^#[\d,]+$/);
  await expect(rankTicks.first()).toBeVisible();
  await expect(history.locator('tr[data-marketplace="amazon"] td').nth(4)).toHaveText(/^#[\d,]+$/);
  // On a phone the chart and its rank axis stay within the screen.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(rankTicks.first()).toBeVisible();
  const box = (await chart.boundingBox())!;
  expect(box.x >= 0 && box.x + box.width <= 390, `chart within the screen (${box.x}..${box.x + box.width})`).toBe(true);
});
