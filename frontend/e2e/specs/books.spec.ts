// A book's own page: opened from an ISBN cell (a marketplace's table, a job's comparison) and from
// the header's search box (any form of an ISBN; an unrecognised code says why and stays), a book
// never looked up priced from its page, and its price history surviving a re-price of its job, with
// how fast it sells (velocity) from Keepa's series beside Keepa's own figures.
import { bookJobName } from '@app/domain/book';
import { ISBN_REJECTION } from '@app/domain/isbn';
import { MARKETPLACE_LIST, MARKETPLACES } from '@app/domain/marketplaces';
import { THIN_VELOCITY_OBSERVATIONS } from '@app/domain/velocity';
import type { JobCreated } from '../../src/client/types.gen';
import { BOOK_TEXT } from '../../src/lib/messages';
import { expect, expectAccessible, expectPath, test } from '../fixtures';
import { MIXED, isbns, seedJob, settledTable, waitForJob } from '../jobs';

/** Books no other spec uses (the browser tests share one database). */
const [NEVER_PRICED, REPRICED] = isbns(2, 515_150_000) as [string, string];
/** A book the sandbox's Keepa does not know (one in ten: backend keepa/sandbox-format.ts knownToKeepa), Amazon ranks. */
const [OURS_ONLY] = isbns(1, 515_152_012) as [string];

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
  // No rank seen: no velocity figures, and the card says so.
  await expect(page.getByTestId('velocity-card')).toHaveAttribute('data-source', 'none');
  await expect(page.getByTestId('velocity-observations')).toHaveText(/^No sales rank seen in 180 days/);
  await expect(page.getByRole('table', { name: 'Velocity' })).toHaveCount(0);
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
  // How fast it sells: our figures drawn from Keepa's series, with the count of ranks they rest on
  // (not thin), and Keepa's own figures from its stats beside them.
  const velocity = page.getByTestId('velocity-card');
  await expect(velocity).toHaveAttribute('data-source', 'keepa');
  const observed = velocity.getByTestId('velocity-observations');
  const observations = Number(await observed.getAttribute('data-count'));
  expect(observations).toBeGreaterThanOrEqual(THIN_VELOCITY_OBSERVATIONS);
  await expect(observed).toHaveText(`${observations.toLocaleString('en-US')} ranked observations in 180 days, from Keepa’s rank series`);
  await expect(velocity.getByText('Thin history')).toHaveCount(0);
  const figures = velocity.getByRole('table', { name: 'Velocity' });
  const figure = (row: string, column: 'ours' | 'keepa') =>
    figures.getByRole('row').filter({ hasText: row }).locator(`td[data-figure="${column}"]`);
  for (const column of ['ours', 'keepa'] as const) {
    for (const n of [30, 90, 180]) await expect(figure(`Rank drops ${n} d`, column), `${column} ${n}`).toHaveText(/^\d[\d,]*$/);
    await expect(figure('Avg rank 180 d', column), column).toHaveText(/^#[\d,]+$/);
  }
  await expect(figure('Sale days 180 d', 'ours')).toHaveText(/^\d+$/);
  await expect(velocity.getByTestId('keepa-now')).toContainText(/Keepa now: rank #[\d,]+ · used/);
  await expectAccessible(page, 'book page with its velocity');
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
  // So is the velocity card, its table whole (no sideways scroll) with both columns of figures.
  await velocity.scrollIntoViewIfNeeded();
  await expect(async () => {
    const card = (await velocity.boundingBox())!;
    expect(card.x >= 0 && card.x + card.width <= 390, `velocity card within the screen (${card.x}..${card.x + card.width})`).toBe(true);
  }).toPass({ timeout: 5_000 });
  expect(await velocity.evaluate((c) => c.scrollWidth <= c.clientWidth + 1)).toBe(true);
  await expect(figure('Rank drops 90 d', 'keepa')).toBeInViewport();
});

test('a book Keepa does not know: its velocity rests on our own looks, and two looks are marked thin', async ({
  userPage: page,
  user,
  api,
}) => {
  test.setTimeout(120_000);
  const auth = { headers: { Authorization: `Bearer ${user.token}` } };
  const job = await api.call<JobCreated>('POST', `/api/v1/books/${OURS_ONLY}/price`, { ...auth, data: { amazon: true } });
  await waitForJob(api, user.token, job.id);
  await api.call('POST', `/api/v1/jobs/${job.id}/reprice`, auth);
  await waitForJob(api, user.token, job.id);
  await page.goto(`/books/${OURS_ONLY}`);
  const velocity = page.getByTestId('velocity-card');
  await expect(velocity).toHaveAttribute('data-source', 'amazon');
  await expect(velocity.getByTestId('velocity-observations')).toHaveText('2 ranked observations in 180 days, from our own Amazon looks');
  await expect(velocity.getByText('Thin history')).toBeVisible();
  // The sandbox's Amazon gives a book the same rank each time: no drop, and that rank is the average
  // (the first look's rank held until the second).
  const ours = (row: string) =>
    velocity.getByRole('table', { name: 'Velocity' }).getByRole('row').filter({ hasText: row }).locator('td[data-figure="ours"]');
  await expect(ours('Rank drops 180 d')).toHaveText('0');
  const latestRank = await page
    .getByRole('table', { name: 'Price history' })
    .locator('tr[data-marketplace="amazon"] td')
    .nth(4)
    .innerText();
  expect(latestRank).toMatch(/^#[\d,]+$/);
  await expect(ours('Avg rank 90 d')).toHaveText(latestRank);
  // Keepa sent nothing for it: no Keepa column, no Keepa line.
  await expect(velocity.getByRole('columnheader', { name: 'Keepa’s' })).toHaveCount(0);
  await expect(velocity.getByTestId('keepa-now')).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 800 });
  await velocity.scrollIntoViewIfNeeded();
  await expectAccessible(page, 'book with a thin velocity');
});
