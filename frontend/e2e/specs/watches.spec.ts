// Watches and alerts in the browser (issue 34): a dealer watches a book from its page for "best
// price dropped by at least a cent", the job is re-priced while the sandbox's prices drift (the
// browser run's app has SANDBOX_PRICE_DRIFT on: the second request for an ISBN sees every price 20 %
// lower), and without reloading the bell shows the alert, pushed on the live stream; the
// notifications page lists it (also at 390 px, without sideways scrolling), and reading it clears
// the bell.
import type { BookPublic } from '../../src/client/types.gen';
import { type Api, expect, expectAccessible, expectToast, test, type User } from '../fixtures';
import { isbnCsv, isbns, seedJob, waitForJob } from '../jobs';
import { TOAST, WATCH_TEXT } from '../../src/lib/messages';

/** A job of `list` on Alibris, looked up once; the ISBNs the sandbox priced (some get no offers). */
async function pricedJob(api: Api, user: User, list: string[]) {
  const auth = { headers: { Authorization: `Bearer ${user.token}` } };
  const job = await seedJob(api, user.token, {
    name: 'Watched books',
    content: isbnCsv(list),
    filename: 'watch.csv',
    sources: { alibris: true },
  });
  await waitForJob(api, user.token, job.id);
  const priced: string[] = [];
  for (const isbn of list) {
    const book = await api.call<BookPublic>('GET', `/api/v1/books/${isbn}`, auth);
    if (book.marketplaces.some((m) => m.latest?.price != null)) priced.push(isbn);
  }
  return { job, priced, auth };
}

test('a watched book that gets cheaper on a re-price rings the bell live, and shows on the notifications page', async ({
  api,
  user,
  userPage: page,
}) => {
  test.setTimeout(120_000);
  const { job, priced, auth } = await pricedJob(api, user, isbns(4, 534_340_000));
  // A book the sandbox priced (some get no offers).
  const isbn = priced[0];
  expect(isbn, 'one of the books has a price').toBeDefined();

  await page.goto(`/books/${isbn}`);
  const bell = page.getByRole('link', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications');
  const watches = page.getByRole('region', { name: 'Watches' });
  await expect(watches.getByText('You are not watching this book.', { exact: false })).toBeVisible();

  // The form checks the condition as the rule builder does: a value is needed.
  await watches.getByRole('button', { name: 'Watch this book' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Watch' });
  await dialog.getByLabel('Name').fill('Cheaper now');
  await dialog.getByLabel('Watch condition 1 field').selectOption({ label: 'Best Price Change' });
  await dialog.getByLabel('Watch condition 1 operator').selectOption({ label: 'less or equal' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByLabel('Watch condition 1 value')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Watch condition 1 value').fill('-0.01');
  await expect(dialog.getByRole('switch', { name: WATCH_TEXT.email })).toBeChecked();
  await expectAccessible(page, 'the watch form', '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, WATCH_TEXT.created);
  await expect(dialog).toBeHidden();

  const watch = watches.getByTestId('watch');
  await expect(watch).toHaveCount(1);
  await expect(watch.getByTestId('watch-conditions')).toHaveText('When Best Price Change less or equal -0.01');
  await expect(watch.getByText('Armed', { exact: true })).toBeVisible();
  await expect(watch.getByTestId('watch-state')).toHaveText('Never fired. Fires on the next answer that meets it.');

  // Re-priced elsewhere (another tab, the schedule): this page is not reloaded.
  await api.call('POST', `/api/v1/jobs/${job.id}/reprice`, auth);
  await expect(bell).toHaveAccessibleName('Notifications: 1 unread', { timeout: 30_000 });
  await expect(page.getByTestId('bell-count')).toHaveAttribute('data-count', '1');
  await expect(watch.getByText('Fired', { exact: true })).toBeVisible();
  await expect(watch.getByTestId('watch-state')).toContainText('Last fired');

  await bell.click();
  await expect(page).toHaveURL((url) => url.pathname === '/notifications');
  const item = page.getByTestId('notification');
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-unread', 'true');
  await expect(item).toContainText('Cheaper now: Best Price Change less or equal -0.01');
  await expect(item).toContainText(isbn as string);
  // A book watch's alert names no job: the job its answer came from may be someone else's
  // (docs/features/watches.md); a job watch's alert links its job (the next test).
  await expect(item.getByRole('link', { name: /^Job / })).toHaveCount(0);
  await expect(page.getByTestId('unread-summary')).toHaveText('1 unread');
  // The page and the header with its bell (the save's toast may still be up: its close button is the notification library's).
  await expectAccessible(page, 'the notifications page', 'main');
  await expectAccessible(page, 'the header with the bell', 'header');

  // On a phone: no sideways scrolling, the buttons within reach.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(item.getByRole('button', { name: 'Mark read' })).toBeInViewport();
  // Polled: right after the resize the sidebar is still sliding away (its transition), as in scan-offline.spec.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: 'no sideways scroll at 390 px' })
    .toBeLessThanOrEqual(390);
  const shots = process.env.E2E_SCREENSHOTS;
  if (shots) await page.screenshot({ path: `${shots}/notifications-390.png`, fullPage: true });

  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(item).toHaveAttribute('data-unread', 'false');
  await expect(page.getByTestId('unread-summary')).toHaveText('All read');
  await expect(page.getByRole('button', { name: 'Mark all read' })).toBeDisabled();

  // Opening the book from the alert leads to its page.
  await item.getByRole('link', { name: 'Open book' }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/books/${isbn}`);
  await expect(watch).toBeVisible();
  // Polled: right after the resize the sidebar is still sliding away (its transition), as in scan-offline.spec.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: 'no sideways scroll at 390 px' })
    .toBeLessThanOrEqual(390);
  if (shots) await watches.screenshot({ path: `${shots}/book-watches-390.png` });
});

test('a job watch fires for each of its books; it is edited (a 422 shows beside its input) and deleted from the job page', async ({
  api,
  user,
  userPage: page,
}) => {
  test.setTimeout(120_000);
  const { job, priced: pricedBooks, auth } = await pricedJob(api, user, isbns(3, 534_350_000));
  const priced = pricedBooks.length;
  expect(priced, 'the sandbox priced some of the books').toBeGreaterThan(0);

  await page.goto(`/jobs/${job.id}`);
  const watches = page.getByRole('region', { name: 'Watches' });
  await watches.getByRole('button', { name: 'Watch this job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Watch' });
  await dialog.getByLabel('Watch condition 1 field').selectOption({ label: 'Best Price' });
  await dialog.getByLabel('Watch condition 1 operator').selectOption({ label: 'greater or equal' });
  await dialog.getByLabel('Watch condition 1 value').fill('0');
  await dialog.getByRole('switch', { name: WATCH_TEXT.email }).uncheck({ force: true });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const watch = watches.getByTestId('watch');
  await expect(watch.getByTestId('watch-conditions')).toHaveText('When Best Price greater or equal 0');
  await expect(watch.getByText('Emailed', { exact: true })).toHaveCount(0);

  // Every priced book of the job fires on its own.
  await api.call('POST', `/api/v1/jobs/${job.id}/reprice`, auth);
  const bell = page.getByRole('link', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName(`Notifications: ${priced} unread`, { timeout: 30_000 });

  // A 422 from the API shows beside the input its loc names (the API's own words).
  await page.route('**/api/v1/watches/*', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 422,
          json: { detail: [{ loc: ['body', 'conditions', 0, 'value'], msg: 'Refused by the server', type: 'value_error' }] },
        })
      : route.fallback(),
  );
  await watch.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit Watch' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Watch' });
  await edit.getByLabel('Name').fill('Anything priced');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('Refused by the server')).toBeVisible();
  await page.unroute('**/api/v1/watches/*');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(watch.getByText('Anything priced', { exact: true })).toBeVisible();

  await watch.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete Watch' }).click();
  await page.getByRole('dialog', { name: 'Delete Watch' }).getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.deleted('watch'));
  await expect(watches.getByText('You are not watching this job.', { exact: false })).toBeVisible();
  // Its notifications stay.
  await page.goto('/notifications');
  await expect(page.getByTestId('notification')).toHaveCount(priced);
  // A job watch's alerts link the job they are about.
  await expect(
    page
      .getByTestId('notification')
      .first()
      .getByRole('link', { name: `Job ${job.id}` }),
  ).toBeVisible();
});

test('the notifications page says so when there is nothing yet, at 390 px too', async ({ userPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/notifications');
  await expect(page.getByText(WATCH_TEXT.noNotifications)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll at 390 px').toBeLessThanOrEqual(390);
});
