// Jobs: the Create Job modal and its ingest report, progress on / and /jobs until the embedded
// worker is done, View links, and filtering and sorting /jobs (spec §2, §4, §5, §8).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MARKETPLACE_LIST, type MarketplaceId } from '@app/domain/marketplaces';
import { VALIDATION } from '../../src/lib/messages';
import { blur, expectDisabled, expectPath, openLoggedIn, seed } from '../harness/helpers';
import { FIXTURES, MIXED, columnValues, expectRowCount, headers, parseCsv, seedJob, settledTable } from '../harness/jobs';
import { e2e } from '../harness/test';

const JOB_COLUMNS = ['Job ID', 'Name', 'Input Filename', 'Abe Books', 'Biblio', 'Alibris', 'PalletIQ', 'Created At', 'Updated At'];

e2e(
  'create a job from a spreadsheet, read its report and watch every source reach 100 %',
  async ({ page }) => {
    const user = await seed.user('jobs');
    await openLoggedIn(page, user.token, '/');
    await page.getByText('Welcome back, nice to see you again!').waitFor();
    await page.getByRole('button', { name: 'New Job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Job' });

    // Default name: the moment it opened, as ISO. Validation on blur.
    const name = dialog.getByLabel('Job Name');
    assert.match(await name.inputValue(), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await name.fill('');
    await blur(name);
    await dialog.getByText(VALIDATION.jobNameRequired, { exact: true }).waitFor();
    await blur(dialog.getByRole('button', { name: /File/ }));
    await dialog.getByText(VALIDATION.fileRequired, { exact: true }).waitFor();
    assert.equal(await dialog.locator('input[type=file]').getAttribute('accept'), '.csv,.xlsx,.xls');

    // Upload stays disabled until a source is ticked.
    const upload = dialog.getByRole('button', { name: 'Upload' });
    await expectDisabled(upload);
    for (const m of MARKETPLACE_LIST) await dialog.getByRole('checkbox', { name: m.label, exact: true }).check();
    await expectDisabled(upload, false);
    await name.fill('E2E mixed job');

    // A file the server refuses: the modal stays open and says why, without an error toast.
    await dialog.locator('input[type=file]').setInputFiles(path.join(FIXTURES, 'no-isbn.xlsx'));
    await upload.click();
    await dialog.getByRole('alert').getByText('No ISBN column found').waitFor();
    assert.equal(await page.locator('.mantine-Notification-root').count(), 0);

    // The sandbox is quick enough to finish before the table first shows the job, so the first
    // list answer after the upload is rewritten to 'nothing done yet': reaching 100 % afterwards
    // then proves the table polls by itself (no refresh click below).
    let rewritten = false;
    await page.route(
      (u) => u.pathname === '/api/v1/jobs/jobs',
      async (route) => {
        if (rewritten) return route.fallback();
        const response = await route.fetch();
        const body = (await response.json()) as { data: Record<MarketplaceId, { processed_isbns: number }>[] };
        rewritten = body.data.length > 0;
        for (const job of body.data) for (const m of MARKETPLACE_LIST) job[m.id].processed_isbns = 0;
        await route.fulfill({ response, json: body });
      },
    );
    await dialog.locator('input[type=file]').setInputFiles(MIXED.file);
    await upload.click();
    const report = dialog.getByRole('table', { name: 'Ingest report' });
    await report.waitFor();
    for (const [label, n] of [
      ['Rows read', MIXED.report.rows_read],
      ['ISBNs accepted', MIXED.report.isbns_accepted],
      ['Duplicates merged', MIXED.report.duplicates_merged],
      ['Cells rejected', MIXED.report.cells_rejected],
    ] as const) {
      assert.equal((await report.getByRole('row', { name: label }).getByRole('cell').innerText()).trim(), String(n), label);
    }
    const rejected = dialog.getByRole('table', { name: 'Rejected cells' });
    const rejectedRows = await rejected.locator('tbody tr').allInnerTexts();
    assert.equal(rejectedRows.length, MIXED.rejected.length);
    MIXED.rejected.forEach(({ row, raw }, i) => {
      const shown = rejectedRows[i] ?? ''; // as many rows as rejections, asserted above
      assert.match(shown, new RegExp(`\\b${row}\\b`));
      assert.ok(shown.includes(raw), `${shown} shows ${raw}`);
    });
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /Download rejected cells/ }).click()]);
    const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
    assert.deepEqual(csv[0], ['sheet', 'row_number', 'raw_value', 'reason']);
    assert.deepEqual(
      csv.slice(1).map((r) => Number(r[1])),
      MIXED.rejected.map((r) => r.row),
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Home lists the job with a progress cell per source, first at 0 % (red), then polled to 100 %.
    const home = await settledTable(page, 'Jobs');
    assert.deepEqual(await headers(home), JOB_COLUMNS);
    const row = home.locator('tbody tr').filter({ hasText: 'E2E mixed job' });
    const jobId = (await row.locator('td').first().innerText()).trim();
    for (const m of MARKETPLACE_LIST) await row.getByRole('link', { name: `View ${m.label}` }).waitFor();
    assert.equal(await row.getByText('10 left', { exact: true }).count(), 4);
    assert.equal(await row.getByText('0%', { exact: true }).count(), 4);
    await row.getByText('0 left', { exact: true }).nth(3).waitFor({ timeout: 60_000 });
    await page.unrouteAll();
    assert.equal(await row.getByText('100%', { exact: true }).count(), 4);
    assert.equal(await row.getByText('0 left', { exact: true }).count(), 4);

    // /jobs from the sidebar: same job, and its View link opens that source filtered on it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs', exact: true }).click();
    await page.getByRole('heading', { name: 'Jobs' }).waitFor();
    await page.getByText(/^Last Refreshed: \d/).waitFor();
    const jobs = await settledTable(page, 'Jobs');
    assert.deepEqual(await headers(jobs), JOB_COLUMNS);
    // The rejected cells stay downloadable from the job's row after the dialog is gone.
    const jobRow = jobs.locator('tbody tr').filter({ hasText: 'E2E mixed job' });
    const [later] = await Promise.all([page.waitForEvent('download'), jobRow.getByRole('button', { name: `${MIXED.report.cells_rejected} rejected` }).click()]);
    assert.deepEqual(
      parseCsv(readFileSync((await later.path())!, 'utf8')).slice(1).map((r) => Number(r[1])),
      MIXED.rejected.map((r) => r.row),
    );
    await jobs.locator('tbody tr').filter({ hasText: 'E2E mixed job' }).getByRole('link', { name: 'View Biblio' }).click();
    await expectPath(page, '/biblio');
    await page.getByRole('heading', { name: 'Biblio Price Lookups' }).waitFor();
    assert.equal(await page.getByLabel('Filter 1 field').inputValue(), 'isbn_lookup_job_id');
    assert.equal(await page.getByLabel('Filter 1 value').inputValue(), jobId);
    const lookups = await settledTable(page, 'Biblio Price Lookups');
    await expectRowCount(lookups, MIXED.report.isbns_accepted);
    assert.ok((await columnValues(lookups, 'Job ID')).every((v) => v === jobId));
  },
  { timeoutMs: 90_000 },
);

e2e('filter and sort /jobs; sources a job does not use show N/A', async ({ page }) => {
  const user = await seed.user('jobsort');
  const csv = 'ISBN\n9780131457577\n';
  // Created oldest first: the default order (newest first) is the reverse.
  for (const name of ['bravo', 'alpha', 'charlie']) await seedJob(user.token, { name, content: csv, filename: `${name}.csv`, sources: { alibris: true } });
  const errors: string[] = [];
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));

  // Garbage in the URL: logged, read as no filters; a bad page is page 1.
  await openLoggedIn(page, user.token, '/jobs?page=zero&filters=%5B%7Bnot-json');
  await page.waitForURL((u) => u.searchParams.get('page') === '1');
  let table = await settledTable(page, 'Jobs');
  assert.deepEqual(await columnValues(table, 'Name'), ['charlie', 'alpha', 'bravo']);
  assert.ok(errors.some((e) => e.includes('filters')), `a console error about the filters (saw ${JSON.stringify(errors)})`);
  const first = table.locator('tbody tr').first();
  for (const label of ['Abe Books', 'Biblio', 'PalletIQ']) assert.equal((await columnValues(table, label))[0], 'N/A');
  await first.getByRole('link', { name: 'View Alibris' }).waitFor();

  // Filter: Name contains 'alp'.
  await page.getByRole('button', { name: 'Add filter' }).click();
  assert.equal(await page.getByLabel('Filter 1 field').inputValue(), 'id');
  assert.equal(await page.getByLabel('Filter 1 operator').inputValue(), 'equals');
  assert.equal(await page.getByLabel('Filter 1 value').inputValue(), '');
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Name' });
  assert.deepEqual(await page.getByLabel('Filter 1 operator').locator('option').allInnerTexts(), ['equals', 'contains']);
  await page.getByLabel('Filter 1 operator').selectOption({ label: 'contains' });
  await page.getByLabel('Filter 1 value').fill('alp');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL((u) => JSON.parse(u.searchParams.get('filters') ?? 'null') !== null);
  table = await settledTable(page, 'Jobs');
  await expectRowCount(table, 1);
  assert.deepEqual(await columnValues(table, 'Name'), ['alpha']);
  // Kept in the URL: a reload shows the same.
  await page.reload();
  await expectRowCount(await settledTable(page, 'Jobs'), 1);
  assert.equal(await page.getByLabel('Filter 1 value').inputValue(), 'alp');

  // Number operators for Job ID; then remove the filter.
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Job ID' });
  assert.deepEqual(await page.getByLabel('Filter 1 operator').locator('option').allInnerTexts(), ['equals', 'greater than', 'less than', 'greater or equal', 'less or equal']);
  await page.getByRole('button', { name: 'Remove filter 1' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL((u) => !u.searchParams.has('filters'));
  table = await settledTable(page, 'Jobs');
  await expectRowCount(table, 3);

  // Sort by Name: ascending, descending, then back to the default.
  const nameHeader = table.getByRole('columnheader', { name: 'Name', exact: true });
  await nameHeader.getByRole('button').click();
  await page.waitForURL((u) => u.searchParams.get('sort_by') === 'name' && u.searchParams.get('sort_direction') === 'asc');
  await eventuallyNames(table, ['alpha', 'bravo', 'charlie']);
  assert.equal(await nameHeader.getAttribute('aria-sort'), 'ascending');
  await nameHeader.getByRole('button').click();
  await page.waitForURL((u) => u.searchParams.get('sort_direction') === 'desc');
  await eventuallyNames(table, ['charlie', 'bravo', 'alpha']);
  await nameHeader.getByRole('button').click();
  await page.waitForURL((u) => !u.searchParams.has('sort_by'));
  await eventuallyNames(table, ['charlie', 'alpha', 'bravo']);
  // Another column starts ascending.
  await table.getByRole('columnheader', { name: 'Input Filename' }).getByRole('button').click();
  await eventuallyNames(table, ['alpha', 'bravo', 'charlie']);
});

async function eventuallyNames(table: import('playwright-core').Locator, names: string[]) {
  const deadline = Date.now() + 10_000;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    seen = await columnValues(table, 'Name');
    if (JSON.stringify(seen) === JSON.stringify(names)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(seen, names);
}
