// Issue 10, wide tables: the column chooser (hide, add, reorder, remembered per marketplace,
// reset, stale stored values), ISBN and title pinned while scrolling sideways, and the scrollbar
// above the table.
import { MARKETPLACES, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Locator, Page } from '@playwright/test';
import { CHROMIUM } from '../app-env';
import { expect, expectAccessible, test as base } from '../fixtures';
import { headers, seedJob, settledTable, waitForJob } from '../jobs';

const abe = MARKETPLACES.abe_books;
const biblio = MARKETPLACES.biblio;
const defaultLabels = (m: MarketplaceInfo) => m.fields.filter((f) => f.column).map((f) => f.label);
const storageKey = (m: MarketplaceInfo) => `lookup-columns:${m.id}`;

// A user whose lookups (Abe Books and Biblio) are finished, shared by the tests below.
const test = base.extend<object, { lookupsToken: string }>({
  lookupsToken: [
    async ({ api }, use) => {
      const { token } = await api.user('columns');
      const job = await seedJob(api, token, { name: 'columns', sources: { abe_books: true, biblio: true } });
      await waitForJob(api, token, job.id);
      await use(token);
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

// Playwright hides scrollbars in headless chromium; these tests want them drawn, as on a desk.
// (A launch option: this file gets a browser of its own.)
test.use({ launchOptions: { ...CHROMIUM, ignoreDefaultArgs: ['--hide-scrollbars'] } });

// The two tests stand alone (each its own page; a worker's lookups are its own): the two workers share them.
test.describe.configure({ mode: 'parallel' });

async function openChooser(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Columns' }).click();
  const dialog = page.getByRole('dialog', { name: 'Columns' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function expectHeaders(table: Locator, expected: string[]): Promise<void> {
  await expect.poll(() => headers(table), { message: `headers ${expected.join(', ')}` }).toEqual(expected);
}

/** Two animation frames: layout that follows a resize (measured by ResizeObserver) has been drawn. */
const nextFrames = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

test('the column chooser hides, adds and orders columns, per marketplace, across reloads, with a reset', async ({
  lookupsToken,
  pageAs,
}) => {
  const page = await pageAs(lookupsToken);
  await page.goto(`/${biblio.slug}`);
  const table = await settledTable(page, biblio.title);
  const defaults = defaultLabels(biblio);
  expect(await headers(table), 'nothing chosen: the spec columns in the spec order').toEqual(defaults);

  // Hide a column.
  const dialog = await openChooser(page);
  await expectAccessible(page, 'column chooser', '[role=dialog]');
  await expect(dialog.getByRole('checkbox', { name: 'ISBN', exact: true }), 'the ISBN is always shown').toBeDisabled();
  await dialog.getByRole('checkbox', { name: 'Product ID', exact: true }).uncheck();
  const withoutProductId = defaults.filter((l) => l !== 'Product ID');
  await expectHeaders(table, withoutProductId);

  // Add one of Biblio's ~70 fields, found through the search box.
  await dialog.getByLabel('Find a column').fill('title');
  await dialog.getByRole('checkbox', { name: 'Title', exact: true }).check();
  await expectHeaders(table, [...withoutProductId, 'Title']);
  await dialog.getByLabel('Find a column').fill('');

  // Move it just right of the ISBN from the keyboard: focus stays on the arrow between presses.
  const up = dialog.getByRole('button', { name: 'Move Title up' });
  await up.focus();
  for (let i = withoutProductId.indexOf('ISBN') + 1; i < withoutProductId.length; i++) await page.keyboard.press('Enter');
  const chosen = ['Offer ID', 'ISBN', 'Title', ...withoutProductId.slice(2)];
  await expectHeaders(table, chosen);
  await expect(up).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A shown field column sorts like the spec's columns.
  await table.getByRole('columnheader', { name: 'Title', exact: true }).getByRole('button').click();
  await expect(page).toHaveURL((u) => u.searchParams.get('sort_by') === 'title' && u.searchParams.get('sort_direction') === 'asc');

  // Remembered across a reload, and only for Biblio.
  await page.reload();
  await expectHeaders(await settledTable(page, biblio.title), chosen);
  await page.goto(`/${abe.slug}`);
  expect(await headers(await settledTable(page, abe.title))).toEqual(defaultLabels(abe));

  // A stale stored value (a field since removed, a duplicate) or one that is not JSON never breaks the page.
  const store = (value: string) => page.evaluate(([key, v]) => localStorage.setItem(key, v), [storageKey(biblio), value] as const);
  await store(JSON.stringify(['title', 'gone_field', 'title', 'price']));
  await page.goto(`/${biblio.slug}`);
  await expectHeaders(await settledTable(page, biblio.title), ['ISBN', 'Title', 'Price']);
  await store('{not json');
  await page.reload();
  await expectHeaders(await settledTable(page, biblio.title), defaults);

  // Reset to default: the spec's columns again, and nothing left stored.
  await store(JSON.stringify(['isbn', 'binding']));
  await page.reload();
  const resetTable = await settledTable(page, biblio.title);
  await expectHeaders(resetTable, ['ISBN', 'Binding']);
  const again = await openChooser(page);
  await again.getByRole('button', { name: 'Reset to default' }).click();
  await expectHeaders(resetTable, defaults);
  await expect(again.getByRole('button', { name: 'Reset to default' })).toBeDisabled();
  expect(await page.evaluate(([key]) => localStorage.getItem(key), [storageKey(biblio)] as const)).toBeNull();
  await page.reload();
  await expectHeaders(await settledTable(page, biblio.title), defaults);
});

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('ISBN and title stay in view while scrolling sideways; the scrollbar above the table scrolls it', async ({
    lookupsToken,
    pageAs,
  }) => {
    test.setTimeout(120_000);
    // Abe Books with its Title field shown after the ISBN: wider than a 1,440 px window.
    const chosen = [
      'id',
      'isbn',
      'title',
      ...abe.fields.filter((f) => f.column && f.name !== 'id' && f.name !== 'isbn').map((f) => f.name),
    ];
    const page = await pageAs(lookupsToken, { [storageKey(abe)]: JSON.stringify(chosen) });
    await page.goto(`/${abe.slug}`);
    const table = await settledTable(page, abe.title);
    const scroller = page.getByTestId('table-scroll');
    const topBar = page.getByTestId('top-scrollbar');
    await expect(topBar).toBeVisible();
    const scrollLeft = (l: Locator) => l.evaluate((el) => el.scrollLeft);

    // Drag the top scrollbar's thumb to the right: the table follows.
    const bar = (await topBar.boundingBox())!;
    expect(bar.height, `a top scrollbar people can grab (${bar.height} px high)`).toBeGreaterThanOrEqual(8);
    await page.mouse.move(bar.x + 30, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + 30 + bar.width / 3, bar.y + bar.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => scrollLeft(scroller), { message: 'the table to scroll with the top scrollbar' }).toBeGreaterThan(50);
    await expect
      .poll(async () => Math.abs((await scrollLeft(scroller)) - (await scrollLeft(topBar))), { message: 'both scrollbars at one place' })
      .toBeLessThanOrEqual(1);

    // Scrolling the table itself (keyboard, on its scroll area) moves the top scrollbar too.
    const before = await scrollLeft(topBar);
    await scroller.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => scrollLeft(topBar), { message: 'the top scrollbar to follow the table' }).toBeGreaterThan(before);

    // ISBN and Title are pinned side by side at the left edge, on top of what scrolls under them.
    const box = (await scroller.boundingBox())!;
    const isbn = (await table.getByRole('columnheader', { name: 'ISBN', exact: true }).boundingBox())!;
    const title = (await table.getByRole('columnheader', { name: 'Title', exact: true }).boundingBox())!;
    expect(Math.abs(isbn.x - box.x), `ISBN at the left edge (${isbn.x} vs ${box.x})`).toBeLessThanOrEqual(1);
    expect(Math.abs(title.x - (isbn.x + isbn.width)), `Title right of the ISBN (${title.x} vs ${isbn.x + isbn.width})`).toBeLessThanOrEqual(
      1,
    );
    for (const header of ['ISBN', 'Title']) {
      const i = (await headers(table)).indexOf(header);
      const cell = table.locator(`tbody tr:nth-child(1) td:nth-child(${i + 1})`);
      const c = (await cell.boundingBox())!;
      const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('td')?.cellIndex, {
        x: c.x + c.width / 2,
        y: c.y + c.height / 2,
      });
      expect(onTop, `the ${header} cell is on top, not the columns scrolled under it`).toBe(i);
      const bg = await cell.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(!/rgba\(.*, 0\)$/.test(bg) && bg !== 'transparent', `${header} cell opaque (${bg})`).toBe(true);
    }
    // The edge shadow marks where the pinned columns end once the table has moved.
    const titleHeader = table.getByRole('columnheader', { name: 'Title', exact: true });
    await expect(titleHeader).toHaveCSS('box-shadow', /rgba\(0, 0, 0, 0\.25\)/);
    await expectAccessible(page, `/${abe.slug} scrolled, with a top scrollbar`);

    // On a small tablet only the ISBN stays pinned; on a phone the rows are cards, and the chooser fits the screen.
    await page.setViewportSize({ width: 700, height: 900 });
    await expect(titleHeader, 'Title not pinned on a small screen').toHaveCSS('position', 'static');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('list', { name: abe.title }).getByRole('listitem').first()).toBeVisible();
    const dialog = await openChooser(page);
    const d = (await dialog.boundingBox())!;
    expect(d.x >= 0 && d.x + d.width <= 390, `chooser within the screen (${d.x}..${d.x + d.width})`).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // E2E_SCREENSHOTS=dir: the wide tables at desktop and phone widths, to look at (never committed).
    const dir = process.env.E2E_SCREENSHOTS;
    if (dir) {
      await page.evaluate(([key]) => localStorage.removeItem(key), [storageKey(abe)] as const);
      for (const m of [abe, biblio]) {
        // Opened wide: on a phone the rows are cards, not a table.
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.goto(`/${m.slug}`);
        await settledTable(page, m.title);
        for (const width of [1440, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await nextFrames(page);
          // The window as seen (full-page pictures leave out scrollbars), the chooser open, then the whole page.
          await page.screenshot({ path: `${dir}/columns-${m.slug}-${width}-view.png` });
          const chooser = await openChooser(page);
          await expect(chooser).toHaveCSS('opacity', '1'); // faded in
          await page.screenshot({ path: `${dir}/columns-${m.slug}-${width}-chooser.png` });
          await page.keyboard.press('Escape');
          await expect(chooser).toBeHidden();
          await page.screenshot({ path: `${dir}/columns-${m.slug}-${width}.png`, fullPage: true });
        }
      }
    }
  });
});
