// Issue 10, wide tables: the column chooser (hide, add, reorder, remembered per marketplace,
// reset, stale stored values), ISBN and title pinned while scrolling sideways, and the scrollbar
// above the table. Self-contained: its own seeding, and its own chromium for the scrollbar test.
import assert from 'node:assert/strict';
import { MARKETPLACES, type MarketplaceInfo } from '@app/domain/marketplaces';
import { chromium, type Locator, type Page } from 'playwright-core';
import { expectAccessible } from '../harness/axe';
import { eventually, openLoggedIn, seed } from '../harness/helpers';
import { headers, seedJob, settledTable, waitForJob } from '../harness/jobs';
import { e2e } from '../harness/test';
import { world } from '../harness/world';

const abe = MARKETPLACES.abe_books;
const biblio = MARKETPLACES.biblio;
const defaultLabels = (m: MarketplaceInfo) => m.fields.filter((f) => f.column).map((f) => f.label);
const storageKey = (m: MarketplaceInfo) => `lookup-columns:${m.id}`;

// One user whose lookups (Abe Books and Biblio) are finished, shared by the tests below.
let shared: Promise<string> | undefined;
function userWithLookups(): Promise<string> {
  shared ??= (async () => {
    const { token } = await seed.user('columns');
    const job = await seedJob(token, { name: 'columns', sources: { abe_books: true, biblio: true } });
    await waitForJob(token, job.id);
    return token;
  })();
  return shared;
}

async function openChooser(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Columns' }).click();
  const dialog = page.getByRole('dialog', { name: 'Columns' });
  await dialog.waitFor();
  return dialog;
}

async function expectHeaders(table: Locator, expected: string[]): Promise<void> {
  await eventually(async () => JSON.stringify(await headers(table)) === JSON.stringify(expected), `headers ${expected.join(', ')}`);
}

e2e('the column chooser hides, adds and orders columns, per marketplace, across reloads, with a reset', async ({ page }) => {
  const token = await userWithLookups();
  await openLoggedIn(page, token, `/${biblio.slug}`);
  const table = await settledTable(page, biblio.title);
  const defaults = defaultLabels(biblio);
  assert.deepEqual(await headers(table), defaults, 'nothing chosen: the spec columns in the spec order');

  // Hide a column.
  const dialog = await openChooser(page);
  await expectAccessible(page, 'column chooser', '[role=dialog]');
  assert.ok(await dialog.getByRole('checkbox', { name: 'ISBN', exact: true }).isDisabled(), 'the ISBN is always shown');
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
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Move Title up');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  // A shown field column sorts like the spec's columns.
  await table.getByRole('columnheader', { name: 'Title', exact: true }).getByRole('button').click();
  await page.waitForURL((u) => u.searchParams.get('sort_by') === 'title' && u.searchParams.get('sort_direction') === 'asc');

  // Remembered across a reload, and only for Biblio.
  await page.reload();
  await expectHeaders(await settledTable(page, biblio.title), chosen);
  await page.goto(`/${abe.slug}`);
  assert.deepEqual(await headers(await settledTable(page, abe.title)), defaultLabels(abe));

  // A stale stored value (a field since removed, a duplicate) or one that is not JSON never breaks the page.
  await page.evaluate(([key]) => localStorage.setItem(key, JSON.stringify(['title', 'gone_field', 'title', 'price'])), [storageKey(biblio)]);
  await page.goto(`/${biblio.slug}`);
  await expectHeaders(await settledTable(page, biblio.title), ['ISBN', 'Title', 'Price']);
  await page.evaluate(([key]) => localStorage.setItem(key, '{not json'), [storageKey(biblio)]);
  await page.reload();
  await expectHeaders(await settledTable(page, biblio.title), defaults);

  // Reset to default: the spec's columns again, and nothing left stored.
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [storageKey(biblio), JSON.stringify(['isbn', 'binding'])]);
  await page.reload();
  const resetTable = await settledTable(page, biblio.title);
  await expectHeaders(resetTable, ['ISBN', 'Binding']);
  const again = await openChooser(page);
  await again.getByRole('button', { name: 'Reset to default' }).click();
  await expectHeaders(resetTable, defaults);
  assert.ok(await again.getByRole('button', { name: 'Reset to default' }).isDisabled());
  assert.equal(await page.evaluate(([key]) => localStorage.getItem(key), [storageKey(biblio)]), null);
  await page.reload();
  await expectHeaders(await settledTable(page, biblio.title), defaults);
});

e2e(
  'ISBN and title stay in view while scrolling sideways; the scrollbar above the table scrolls it',
  async () => {
    const token = await userWithLookups();
    // Playwright hides scrollbars in headless chromium; this test needs them drawn, as on a desk.
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      ignoreDefaultArgs: ['--hide-scrollbars'],
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const context = await browser.newContext({ baseURL: world().baseUrl, viewport: { width: 1440, height: 900 } });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      // Abe Books with its Title field shown after the ISBN: wider than a 1,440 px window.
      const chosen = ['id', 'isbn', 'title', ...abe.fields.filter((f) => f.column && f.name !== 'id' && f.name !== 'isbn').map((f) => f.name)];
      await openLoggedIn(page, token, '/login');
      await page.evaluate(([key, value]) => localStorage.setItem(key, value), [storageKey(abe), JSON.stringify(chosen)]);
      await page.goto(`/${abe.slug}`);
      const table = await settledTable(page, abe.title);
      const scroller = page.getByTestId('table-scroll');
      const topBar = page.getByTestId('top-scrollbar');
      await topBar.waitFor();
      const scrollLeft = (l: Locator) => l.evaluate((el) => el.scrollLeft);

      // Drag the top scrollbar's thumb to the right: the table follows.
      const bar = (await topBar.boundingBox())!;
      assert.ok(bar.height >= 8, `a top scrollbar people can grab (${bar.height} px high)`);
      await page.mouse.move(bar.x + 30, bar.y + bar.height / 2);
      await page.mouse.down();
      await page.mouse.move(bar.x + 30 + bar.width / 3, bar.y + bar.height / 2, { steps: 5 });
      await page.mouse.up();
      await eventually(async () => (await scrollLeft(scroller)) > 50, 'the table to scroll with the top scrollbar');
      await eventually(async () => Math.abs((await scrollLeft(scroller)) - (await scrollLeft(topBar))) <= 1, 'both scrollbars at one place');

      // Scrolling the table itself (keyboard, on its scroll area) moves the top scrollbar too.
      const before = await scrollLeft(topBar);
      await scroller.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await eventually(async () => (await scrollLeft(topBar)) > before, 'the top scrollbar to follow the table');

      // ISBN and Title are pinned side by side at the left edge, on top of what scrolls under them.
      const box = (await scroller.boundingBox())!;
      const isbn = (await table.getByRole('columnheader', { name: 'ISBN', exact: true }).boundingBox())!;
      const title = (await table.getByRole('columnheader', { name: 'Title', exact: true }).boundingBox())!;
      assert.ok(Math.abs(isbn.x - box.x) <= 1, `ISBN at the left edge (${isbn.x} vs ${box.x})`);
      assert.ok(Math.abs(title.x - (isbn.x + isbn.width)) <= 1, `Title right of the ISBN (${title.x} vs ${isbn.x + isbn.width})`);
      for (const header of ['ISBN', 'Title']) {
        const i = (await headers(table)).indexOf(header);
        const cell = table.locator(`tbody tr:nth-child(1) td:nth-child(${i + 1})`);
        const c = (await cell.boundingBox())!;
        const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('td')?.cellIndex, { x: c.x + c.width / 2, y: c.y + c.height / 2 });
        assert.equal(onTop, i, `the ${header} cell is on top, not the columns scrolled under it`);
        const bg = await cell.evaluate((el) => getComputedStyle(el).backgroundColor);
        assert.ok(!/rgba\(.*, 0\)$/.test(bg) && bg !== 'transparent', `${header} cell opaque (${bg})`);
      }
      // The edge shadow marks where the pinned columns end once the table has moved.
      const lastPinnedShadow = await table.getByRole('columnheader', { name: 'Title', exact: true }).evaluate((el) => getComputedStyle(el).boxShadow);
      assert.match(lastPinnedShadow, /rgba\(0, 0, 0, 0\.25\)/);
      await expectAccessible(page, `/${abe.slug} scrolled, with a top scrollbar`);

      // On a phone only the ISBN stays pinned, and the chooser fits the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await eventually(
        async () => (await table.getByRole('columnheader', { name: 'Title', exact: true }).evaluate((el) => getComputedStyle(el).position)) === 'static',
        'Title not pinned on a phone',
      );
      const dialog = await openChooser(page);
      const d = (await dialog.boundingBox())!;
      assert.ok(d.x >= 0 && d.x + d.width <= 390, `chooser within the screen (${d.x}..${d.x + d.width})`);
      await page.keyboard.press('Escape');

      // E2E_SCREENSHOTS=dir: the wide tables at desktop and phone widths, to look at (never committed).
      const dir = process.env.E2E_SCREENSHOTS;
      if (dir) {
        await page.evaluate(([key]) => localStorage.removeItem(key), [storageKey(abe)]);
        for (const m of [abe, biblio]) {
          await page.goto(`/${m.slug}`);
          await settledTable(page, m.title);
          for (const width of [1440, 390]) {
            await page.setViewportSize({ width, height: 900 });
            await page.waitForTimeout(300);
            // The window as seen (full-page pictures leave out scrollbars), the chooser open, then the whole page.
            await page.screenshot({ path: `${dir}/columns-${m.slug}-${width}-view.png` });
            const chooser = await openChooser(page);
            await page.waitForTimeout(300); // the popover's fade-in
            await page.screenshot({ path: `${dir}/columns-${m.slug}-${width}-chooser.png` });
            await page.keyboard.press('Escape');
            await chooser.waitFor({ state: 'hidden' });
            await page.screenshot({ path: `${dir}/columns-${m.slug}-${width}.png`, fullPage: true });
          }
        }
      }
    } finally {
      await browser.close();
    }
  },
  { timeoutMs: 120_000 },
);
