// The four price-lookup pages: placeholders, columns, paging, filtering, sorting, the offers of a
// row, the CSV download against the table, and Upload File for one source (spec §2, §4, §7, §9).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FINISHED_STATUSES } from '@app/domain/status';
import { MARKETPLACE_LIST, MARKETPLACES, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Locator, Page } from 'playwright-core';
import { VALIDATION } from '../../src/lib/messages';
import { blur, eventually, expectDisabled, openLoggedIn, seed } from '../harness/helpers';
import { MIXED, columnValues, expectRowCount, headers, parseCsv, seedJob, settledTable, slowDown, waitForJob } from '../harness/jobs';
import { e2e } from '../harness/test';
import { world } from '../harness/world';
import { must } from '@app/domain/must';

// One user with the same spreadsheet uploaded twice for every source: 20 lookups per page,
// set up once for all four marketplace tests.
let shared: Promise<{ token: string; jobIds: [number, number]; simulated: boolean }> | undefined;
function twoFinishedJobs() {
  shared ??= (async () => {
    const { token } = await seed.user('lookups');
    const a = await seedJob(token, { name: 'first upload' });
    const b = await seedJob(token, { name: 'second upload' });
    await Promise.all([waitForJob(token, a.id), waitForJob(token, b.id)]);
    const info = (await (await fetch(`${world().baseUrl}/api/v1/utils/app-info/`)).json()) as { prices_simulated: boolean };
    return { token, jobIds: [a.id, b.id] as [number, number], simulated: info.prices_simulated };
  })();
  return shared;
}

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
  e2e(
    `${m.label} page: placeholders, paging, filter, sort, offers and CSV`,
    async ({ page }) => {
      const { token, jobIds } = await twoFinishedJobs();
      const { simulated } = await twoFinishedJobs();

      // Placeholder rows while the first page is on its way (spec §9).
      const release = await slowDown(page, `/${m.slug}/price-lookups`, 1500);
      await openLoggedIn(page, token, `/${m.slug}`);
      await page.getByRole('heading', { name: m.title }).waitFor();
      await eventually(async () => (await page.getByTestId('placeholder-row').count()) === m.placeholderRows, `${m.placeholderRows} placeholder rows`);
      await release();
      if (simulated) await page.getByText('Prices are simulated').waitFor();

      // Columns from the field table; statuses are badges of finished lookups.
      let table = await settledTable(page, m.title);
      assert.deepEqual(await headers(table), columnLabels(m));
      await expectRowCount(table, 10);
      for (const s of await rawStatuses(table)) assert.ok((FINISHED_STATUSES as readonly string[]).includes(s), `status ${s}`);
      // Badges read "no offers available" whole, the raw value on hover.
      for (const badge of await table.locator('[data-status]').all()) {
        assert.equal((await badge.innerText()).trim(), (await badge.getAttribute('title'))!.replaceAll('_', ' '));
        assert.ok(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'status badge not cut');
      }
      // Money: two decimals and the currency, right-aligned (issue 10), on the real rows.
      for (const f of m.fields.filter((x) => x.column && x.format === 'money')) {
        const values = await columnValues(table, f.label);
        assert.ok(values.some((v) => v !== 'N/A'), `some ${f.label}`);
        for (const v of values) assert.match(v, /^(N\/A|-?[$£€][\d,]+\.\d\d|-?[\d,]+\.\d\d [A-Z]{3}|-?[A-Z]{1,3}\$?\s?[\d,]+\.\d\d)$/, `${f.label} ${v}`);
        const i = (await headers(table)).indexOf(f.label);
        assert.equal(await table.locator(`tbody tr td:nth-child(${i + 1})`).first().evaluate((el) => getComputedStyle(el).textAlign), 'right');
      }
      // The total under the table: two uploads of the sheet.
      assert.equal(await page.getByTestId('page-range').innerText(), `1–10 of ${2 * MIXED.report.isbns_accepted}`);
      // External links open in a new tab with an http(s) address.
      for (const a of await table.locator('tbody a').all()) {
        assert.equal(await a.getAttribute('target'), '_blank');
        assert.match((await a.getAttribute('rel')) ?? '', /noopener/);
        assert.match((await a.getAttribute('href')) ?? '', /^https?:\/\//);
      }

      // Paging by 10: Next while the page is full, Previous off on page 1.
      const next = page.getByRole('button', { name: 'Next' });
      const previous = page.getByRole('button', { name: 'Previous' });
      await expectDisabled(previous);
      await expectDisabled(next, false);
      const page1 = await rowTexts(page, m);
      await next.click();
      await page.waitForURL((u) => u.searchParams.get('page') === '2');
      const range = page.getByTestId('page-range');
      await eventually(async () => (await range.innerText()) === `11–20 of ${2 * MIXED.report.isbns_accepted}`, 'the footer to count page 2');
      await eventually(async () => !(await rowTexts(page, m)).some((r) => page1.includes(r)), 'page 2 to show other rows');
      await expectRowCount(table, 10);
      await next.click();
      await page.waitForURL((u) => u.searchParams.get('page') === '3');
      await expectRowCount(table, 0);
      await expectDisabled(next);
      await expectDisabled(previous, false);

      // Filter on the first job: back to page 1, kept in the URL.
      await addFilter(page, 1, 'Job ID', 'equals', String(jobIds[0]));
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL((u) => u.searchParams.get('page') === '1' && u.searchParams.has('filters'));
      table = await settledTable(page, m.title);
      await expectRowCount(table, 10);
      assert.equal(await page.getByTestId('page-range').innerText(), `1–10 of ${MIXED.report.isbns_accepted}`);
      // One JSON encoding in the URL, not a JSON string quoted again.
      assert.equal(new URL(page.url()).searchParams.get('filters')!.slice(0, 2), '[{');

      // Sort by ISBN: ascending, then descending.
      const isbnHeader = table.getByRole('columnheader', { name: 'ISBN', exact: true });
      const sortIsbn = () => isbnHeader.getByRole('button').click();
      await sortIsbn();
      await page.waitForURL((u) => u.searchParams.get('sort_by') === 'isbn' && u.searchParams.get('sort_direction') === 'asc');
      await eventually(async () => isSorted(await columnValues(table, 'ISBN'), 1), 'ISBNs ascending');
      await sortIsbn();
      await page.waitForURL((u) => u.searchParams.get('sort_direction') === 'desc');
      await eventually(async () => isSorted(await columnValues(table, 'ISBN'), -1), 'ISBNs descending');
      const isbns = await columnValues(table, 'ISBN');
      assert.equal(new Set(isbns).size, MIXED.report.isbns_accepted);

      // The CSV holds the filtered rows in the table's order, under the same headers.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
      assert.match(download.suggestedFilename(), new RegExp(`^${m.csvPrefix}_price_lookups_\\d{8}T\\d{6}\\.csv$`));
      const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
      assert.deepEqual(csv[0], columnLabels(m));
      const isbnAt = csv[0].indexOf('ISBN');
      assert.deepEqual(
        csv.slice(1).map((r) => r[isbnAt]),
        isbns,
      );
      const statusAt = csv[0].indexOf(statusLabel(m));
      assert.deepEqual(
        csv.slice(1).map((r) => r[statusAt]),
        await rawStatuses(table),
      );
      // CSV keeps plain numbers for money.
      for (const f of m.fields.filter((x) => x.column && x.format === 'money')) {
        const at = csv[0].indexOf(f.label);
        for (const r of csv.slice(1)) assert.match(must(r[at], `${f.label} in every CSV row`), /^(-?\d+(\.\d+)?)?$/, `${f.label} in CSV: ${r[at]}`);
      }

      // Narrow to one ISBN and open its offers.
      await addFilter(page, 2, 'ISBN', 'contains', MIXED.knownIsbn.slice(3));
      await page.getByRole('button', { name: 'Apply' }).click();
      await expectRowCount(table, 1);
      await table.locator('tbody tr').first().click();
      const drawer = page.getByRole('dialog', { name: `Offers for ISBN ${MIXED.knownIsbn}` });
      await drawer.waitFor();
      const status = must((await columnValues(table, statusLabel(m)))[0], 'one row');
      await drawer.getByText(status, { exact: true }).first().waitFor();
      if (status === 'completed') {
        const offers = drawer.getByRole('table', { name: 'Offers' });
        assert.ok((await offers.locator('tbody tr').count()) >= 1);
        assert.ok((await offers.locator('thead th').count()) >= 1);
        // Listings lead with their price, the column a dealer compares first.
        // (after the column marking the chosen offer).
        const offerHeaders = await offers.locator('thead th').allInnerTexts();
        if (m.id !== 'pallet_iq') assert.match(offerHeaders.filter((h) => h.trim() && h !== 'Chosen')[0] ?? '', /price/i, JSON.stringify(offerHeaders));
        // Readable headers, not wire keys; money formatted; the row's offer marked.
        for (const h of await offers.locator('thead th').allInnerTexts()) assert.doesNotMatch(h, /_|[a-z][A-Z]/, `header ${h}`);
        assert.equal(await offers.locator('tbody tr[data-chosen]').count(), 1);
        await offers.locator('tbody tr[data-chosen]').getByText('Chosen').waitFor();
        if (m.id !== 'pallet_iq') assert.match(await offers.locator('tbody tr').first().locator('td').nth(1).innerText(), /\d\.\d\d$/);
      } else {
        await drawer.getByText('No offers.').waitFor();
        if (status === 'failed') await drawer.getByText('Last error').waitFor();
      }
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });

      // Nothing matches: the empty state.
      await page.getByLabel('Filter 2 operator').selectOption({ label: 'equals' });
      await page.getByLabel('Filter 2 value').fill('0000000000');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expectRowCount(table, 0);
      await table.getByText('No results found').waitFor();
    },
    { timeoutMs: 90_000 },
  );
}

/** The raw lookup_status of each row (the badge reads it with spaces; the title holds it whole). */
async function rawStatuses(table: Locator): Promise<string[]> {
  return Promise.all((await table.locator('tbody [data-status]').all()).map(async (b) => (await b.getAttribute('data-status'))!));
}

function isSorted(values: string[], dir: 1 | -1): boolean {
  return values.length > 1 && values.every((v, i) => i === 0 || dir * must(values[i - 1], 'the value before').localeCompare(v) <= 0);
}

e2e('Upload File for PalletIQ makes a job for that source only', async ({ page }) => {
  const m = MARKETPLACES.pallet_iq;
  const user = await seed.user('palletupload');
  await openLoggedIn(page, user.token, `/${m.slug}`);
  const table = await settledTable(page, m.title);
  await expectRowCount(table, 0);

  await page.getByRole('button', { name: 'Upload File' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload File for PalletIQ' });
  await blur(dialog.getByRole('button', { name: /File/ }));
  await dialog.getByText(VALIDATION.fileRequired, { exact: true }).waitFor();
  await dialog.locator('input[type=file]').setInputFiles(MIXED.file);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  const report = dialog.getByRole('table', { name: 'Ingest report' });
  assert.equal((await report.getByRole('row', { name: 'ISBNs accepted' }).getByRole('cell').innerText()).trim(), String(MIXED.report.isbns_accepted));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expectRowCount(table, MIXED.report.isbns_accepted);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs', exact: true }).click();
  const jobs = await settledTable(page, 'Jobs');
  for (const other of MARKETPLACE_LIST.filter((x) => x.id !== m.id)) assert.deepEqual(await columnValues(jobs, other.label), ['N/A']);
  await jobs.getByRole('link', { name: 'View PalletIQ' }).waitFor();
});
