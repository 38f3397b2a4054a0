// Every marketplace's price-lookup page: placeholders, columns, paging, filtering, sorting, the offers of a
// row, the CSV download against the table, and Upload File for one source (docs/requirements.md:
// Marketplace pages, Tables).
import { readFileSync } from 'node:fs';
import { FINISHED_STATUSES } from '@app/domain/status';
import { MARKETPLACE_LIST, MARKETPLACES, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Locator, Page } from '@playwright/test';
import { VALIDATION } from '../../src/lib/messages';
import { type Api, blur, expect, test } from '../fixtures';
import { MIXED, columnValues, expectRowCount, headers, holdRequests, parseCsv, seedJob, settledTable, waitForJob } from '../jobs';

interface Lookups {
  token: string;
  jobIds: [number, number];
  simulated: boolean;
}

// One user with the same spreadsheet uploaded twice for every source: 20 lookups per page, set up
// once per worker for every marketplace's tests. A promise kept by the worker, not a worker-scoped
// fixture: a fixture of its own would give this file its own kind of worker, which Playwright
// schedules after every other file's (measured: the last 66 s of the side-by-side run, one worker idle).
let shared: Promise<Lookups> | undefined;
function lookupsOf(api: Api): Promise<Lookups> {
  shared ??= (async () => {
    const { token } = await api.user('lookups');
    const a = await seedJob(api, token, { name: 'first upload' });
    const b = await seedJob(api, token, { name: 'second upload' });
    await Promise.all([waitForJob(api, token, a.id), waitForJob(api, token, b.id)]);
    const info = await api.call<{ prices_simulated: boolean }>('GET', '/api/v1/utils/app-info/');
    return { token, jobIds: [a.id, b.id] as [number, number], simulated: info.prices_simulated };
  })();
  return shared;
}

// Each marketplace's test stands alone (its own page, the worker's lookups): the two workers share them.
test.describe.configure({ mode: 'parallel' });

async function addFilter(page: Page, n: number, label: string, operator: string, value: string) {
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel(`Filter ${n} field`).selectOption({ label });
  await page.getByLabel(`Filter ${n} operator`).selectOption({ label: operator });
  await page.getByLabel(`Filter ${n} value`).fill(value);
}

async function rowTexts(page: Page, m: MarketplaceInfo): Promise<string[]> {
  return (await settledTable(page, m.title)).locator('tbody tr').allInnerTexts();
}

const columnLabels = (m: MarketplaceInfo) => m.fields.filter((f) => f.column).map((f) => f.label);
const statusLabel = (m: MarketplaceInfo) => m.fields.find((f) => f.name === 'lookup_status')!.label;

for (const m of MARKETPLACE_LIST) {
  test(`${m.label} page: placeholders, paging, filter, sort, offers and CSV`, async ({ api, pageAs }) => {
    test.setTimeout(90_000);
    const { token, jobIds, simulated } = await lookupsOf(api);
    const page = await pageAs(token);

    // Placeholder rows while the first page is on its way (docs/requirements.md, Tables).
    const release = await holdRequests(page, `/${m.slug}/price-lookups`);
    await page.goto(`/${m.slug}`);
    await expect(page.getByRole('heading', { name: m.title })).toBeVisible();
    await expect(page.getByTestId('placeholder-row')).toHaveCount(m.placeholderRows);
    await release();
    if (simulated) await expect(page.getByText('Prices are simulated')).toBeVisible();

    // Columns from the field table; statuses are badges of finished lookups.
    let table = await settledTable(page, m.title);
    expect(await headers(table)).toEqual(columnLabels(m));
    await expectRowCount(table, 10);
    for (const s of await rawStatuses(table)) expect(FINISHED_STATUSES as readonly string[], `status ${s}`).toContain(s);
    // Badges read "no offers available" whole, the raw value on hover.
    for (const badge of await table.locator('[data-status]').all()) {
      await expect(badge).toHaveText((await badge.getAttribute('title'))!.replaceAll('_', ' '));
      expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'status badge not cut').toBe(true);
    }
    // Money: two decimals and the currency, right-aligned (issue 10), on the real rows.
    for (const f of m.fields.filter((x) => x.column && x.format === 'money')) {
      const values = await columnValues(table, f.label);
      expect(
        values.some((v) => v !== 'N/A'),
        `some ${f.label}`,
      ).toBe(true);
      for (const v of values)
        expect(v, `${f.label} ${v}`).toMatch(/^(N\/A|-?[$£€][\d,]+\.\d\d|-?[\d,]+\.\d\d [A-Z]{3}|-?[A-Z]{1,3}\$?\s?[\d,]+\.\d\d)$/);
      const i = (await headers(table)).indexOf(f.label);
      await expect(table.locator(`tbody tr td:nth-child(${i + 1})`).first()).toHaveCSS('text-align', 'right');
    }
    // The total under the table: two uploads of the sheet.
    const range = page.getByTestId('page-range');
    await expect(range).toHaveText(`1–10 of ${2 * MIXED.report.isbns_accepted}`);
    // Each ISBN opens its book's page; external links open in a new tab with an http(s) address.
    for (const a of await table.locator('tbody a[href^="/books/"]').all()) {
      await expect(a).toHaveAttribute('href', `/books/${await a.innerText()}`);
    }
    await expect(table.locator('tbody a[href^="/books/"]')).toHaveCount(10);
    for (const a of await table.locator('tbody a:not([href^="/books/"])').all()) {
      await expect(a).toHaveAttribute('target', '_blank');
      await expect(a).toHaveAttribute('rel', /noopener/);
      await expect(a).toHaveAttribute('href', /^https?:\/\//);
    }

    // Paging by 10: Next while the page is full, Previous off on page 1.
    const next = page.getByRole('button', { name: 'Next' });
    const previous = page.getByRole('button', { name: 'Previous' });
    await expect(previous).toBeDisabled();
    await expect(next).toBeEnabled();
    const page1 = await rowTexts(page, m);
    await next.click();
    await expect(page).toHaveURL((u) => u.searchParams.get('page') === '2');
    await expect(range, 'the footer to count page 2').toHaveText(`11–20 of ${2 * MIXED.report.isbns_accepted}`);
    await expect
      .poll(async () => (await rowTexts(page, m)).filter((r) => page1.includes(r)), { message: 'page 2 to show other rows' })
      .toEqual([]);
    await expectRowCount(table, 10);
    await next.click();
    await expect(page).toHaveURL((u) => u.searchParams.get('page') === '3');
    await expectRowCount(table, 0);
    await expect(next).toBeDisabled();
    await expect(previous).toBeEnabled();

    // Filter on the first job: back to page 1, kept in the URL.
    await addFilter(page, 1, 'Job ID', 'equals', String(jobIds[0]));
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL((u) => u.searchParams.get('page') === '1' && u.searchParams.has('filters'));
    table = await settledTable(page, m.title);
    await expectRowCount(table, 10);
    await expect(range).toHaveText(`1–10 of ${MIXED.report.isbns_accepted}`);
    // One JSON encoding in the URL, not a JSON string quoted again.
    expect(new URL(page.url()).searchParams.get('filters')!.slice(0, 2)).toBe('[{');

    // Sort by ISBN: ascending, then descending.
    const isbnHeader = table.getByRole('columnheader', { name: 'ISBN', exact: true });
    const sortIsbn = () => isbnHeader.getByRole('button').click();
    await sortIsbn();
    await expect(page).toHaveURL((u) => u.searchParams.get('sort_by') === 'isbn' && u.searchParams.get('sort_direction') === 'asc');
    await expect.poll(async () => isSorted(await columnValues(table, 'ISBN'), 1), { message: 'ISBNs ascending' }).toBe(true);
    await sortIsbn();
    await expect(page).toHaveURL((u) => u.searchParams.get('sort_direction') === 'desc');
    await expect.poll(async () => isSorted(await columnValues(table, 'ISBN'), -1), { message: 'ISBNs descending' }).toBe(true);
    const isbns = await columnValues(table, 'ISBN');
    expect(new Set(isbns).size).toBe(MIXED.report.isbns_accepted);

    // The CSV holds the filtered rows in the table's order, under the same headers.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${m.csvPrefix}_price_lookups_\\d{8}T\\d{6}\\.csv$`));
    const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
    expect(csv[0]).toEqual(columnLabels(m));
    const isbnAt = csv[0]!.indexOf('ISBN');
    expect(csv.slice(1).map((r) => r[isbnAt])).toEqual(isbns);
    const statusAt = csv[0]!.indexOf(statusLabel(m));
    expect(csv.slice(1).map((r) => r[statusAt])).toEqual(await rawStatuses(table));
    // CSV keeps plain numbers for money.
    for (const f of m.fields.filter((x) => x.column && x.format === 'money')) {
      const at = csv[0]!.indexOf(f.label);
      for (const r of csv.slice(1)) expect(r[at], `${f.label} in CSV: ${r[at]}`).toMatch(/^(-?\d+(\.\d+)?)?$/);
    }

    // Narrow to one ISBN and open its offers.
    await addFilter(page, 2, 'ISBN', 'contains', MIXED.knownIsbn.slice(3));
    await page.getByRole('button', { name: 'Apply' }).click();
    await expectRowCount(table, 1);
    await table.locator('tbody tr').first().click();
    const drawer = page.getByRole('dialog', { name: `Offers for ISBN ${MIXED.knownIsbn}` });
    await expect(drawer).toBeVisible();
    // The badge's text: the cell may also hold a hint (retry time, reused answer's age).
    const status = await table.locator('tbody tr').first().locator('[data-status]').innerText();
    await expect(drawer.getByText(status, { exact: true }).first()).toBeVisible();
    if (status === 'completed') {
      const offers = drawer.getByRole('table', { name: 'Offers' });
      expect(await offers.locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
      expect(await offers.locator('thead th').count()).toBeGreaterThanOrEqual(1);
      // Listings lead with their price, the column a dealer compares first
      // (after the column marking the chosen offer).
      const offerHeaders = await offers.locator('thead th').allInnerTexts();
      if (m.id !== 'pallet_iq')
        expect(offerHeaders.filter((h) => h.trim() && h !== 'Chosen')[0], JSON.stringify(offerHeaders)).toMatch(/price/i);
      // Readable headers, not wire keys; money formatted; the row's offer marked.
      for (const h of offerHeaders) expect(h, `header ${h}`).not.toMatch(/_|[a-z][A-Z]/);
      await expect(offers.locator('tbody tr[data-chosen]')).toHaveCount(1);
      await expect(offers.locator('tbody tr[data-chosen]').getByText('Chosen')).toBeVisible();
      if (m.id !== 'pallet_iq') await expect(offers.locator('tbody tr').first().locator('td').nth(1)).toHaveText(/\d\.\d\d$/);
    } else {
      await expect(drawer.getByText('No offers.')).toBeVisible();
      if (status === 'failed') await expect(drawer.getByText('Last error')).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    // Nothing matches: the empty state.
    await page.getByLabel('Filter 2 operator').selectOption({ label: 'equals' });
    await page.getByLabel('Filter 2 value').fill('0000000000');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expectRowCount(table, 0);
    await expect(table.getByText('No results found')).toBeVisible();
  });
}

/** The raw lookup_status of each row (the badge reads it with spaces; the title holds it whole). */
async function rawStatuses(table: Locator): Promise<string[]> {
  return Promise.all((await table.locator('tbody [data-status]').all()).map(async (b) => (await b.getAttribute('data-status'))!));
}

function isSorted(values: string[], dir: 1 | -1): boolean {
  return values.length > 1 && values.every((v, i) => i === 0 || dir * values[i - 1]!.localeCompare(v) <= 0);
}

test('Upload File for PalletIQ makes a job for that source only', async ({ userPage: page }) => {
  const m = MARKETPLACES.pallet_iq;
  await page.goto(`/${m.slug}`);
  const table = await settledTable(page, m.title);
  await expectRowCount(table, 0);

  await page.getByRole('button', { name: 'Upload File' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload File for PalletIQ' });
  await blur(dialog.getByRole('button', { name: /File/ }));
  await expect(dialog.getByText(VALIDATION.fileRequired, { exact: true })).toBeVisible();
  await dialog.locator('input[type=file]').setInputFiles(MIXED.file);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  const report = dialog.getByRole('table', { name: 'Ingest report' });
  await expect(report.getByRole('row', { name: 'ISBNs accepted' }).getByRole('cell')).toHaveText(String(MIXED.report.isbns_accepted));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expectRowCount(table, MIXED.report.isbns_accepted);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs', exact: true }).click();
  const jobs = await settledTable(page, 'Jobs');
  for (const other of MARKETPLACE_LIST.filter((x) => x.id !== m.id))
    expect(await columnValues(jobs, other.label), other.label).toEqual(['N/A']);
  await expect(jobs.getByRole('link', { name: 'View PalletIQ' })).toBeVisible();
});
