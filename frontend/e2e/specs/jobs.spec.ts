// Jobs: the Create Job modal and its ingest report, progress on / and /jobs until the embedded worker is
// done, View links, and filtering and sorting /jobs (docs/requirements.md: Create Job dialog, Jobs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { Locator } from '@playwright/test';
import { VALIDATION } from '../../src/lib/messages';
import { blur, expect, expectPath, test } from '../fixtures';
import { FIXTURES, MIXED, columnValues, expectRowCount, headers, parseCsv, seedJob, settledTable } from '../jobs';

const JOB_COLUMNS = [
  'Job ID',
  'Name',
  'Input Filename',
  'Abe Books',
  'Biblio',
  'Alibris',
  'PalletIQ',
  'Amazon',
  'eBay',
  'Created At',
  'Updated At',
  'Actions',
];

test('create a job from a spreadsheet, read its report and watch every source reach 100 %', async ({ userPage: page }) => {
  test.setTimeout(90_000);
  // This test proves the polling fallback (live.spec.ts the live events): no event stream.
  await page.route(
    (u) => u.pathname === '/api/v1/jobs/events',
    (route) => route.abort(),
  );
  await page.goto('/');
  await expect(page.getByText('Welcome back, nice to see you again!')).toBeVisible();
  await page.getByRole('button', { name: 'New Job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Job' });

  // Default name: the moment it opened, as ISO. Validation on blur.
  const name = dialog.getByLabel('Job Name');
  await expect(name).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  await name.fill('');
  await blur(name);
  await expect(dialog.getByText(VALIDATION.jobNameRequired, { exact: true })).toBeVisible();
  await blur(dialog.getByRole('button', { name: /File/ }));
  await expect(dialog.getByText(VALIDATION.fileRequired, { exact: true })).toBeVisible();
  await expect(dialog.locator('input[type=file]')).toHaveAttribute('accept', '.csv,.xlsx,.xls');

  // Upload stays disabled until a source is ticked.
  const upload = dialog.getByRole('button', { name: 'Upload' });
  await expect(upload).toBeDisabled();
  for (const m of MARKETPLACE_LIST) await dialog.getByRole('checkbox', { name: m.label, exact: true }).check();
  await expect(upload).toBeEnabled();
  await name.fill('E2E mixed job');

  // A file the server refuses: the modal stays open and says why, without an error toast.
  await dialog.locator('input[type=file]').setInputFiles(path.join(FIXTURES, 'no-isbn.xlsx'));
  await upload.click();
  await expect(dialog.getByRole('alert').getByText('No ISBN column found')).toBeVisible();
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);

  // The sandbox is quick enough to finish before the table first shows the job, so the list
  // answers say 'nothing done yet' until the test has seen that state: reaching 100 % afterwards
  // then proves the table polls by itself (no refresh click below).
  let nothingDoneYet = true;
  await page.route(
    (u) => u.pathname === '/api/v1/jobs/jobs',
    async (route) => {
      if (!nothingDoneYet) return route.fallback();
      const response = await route.fetch();
      const body = (await response.json()) as { data: Record<string, { processed_isbns: number }>[] };
      for (const job of body.data) for (const m of MARKETPLACE_LIST) job[m.id]!.processed_isbns = 0;
      await route.fulfill({ response, json: body });
    },
  );
  await dialog.locator('input[type=file]').setInputFiles(MIXED.file);
  await upload.click();
  const report = dialog.getByRole('table', { name: 'Ingest report' });
  for (const [label, n] of [
    ['Rows read', MIXED.report.rows_read],
    ['ISBNs accepted', MIXED.report.isbns_accepted],
    ['Duplicates merged', MIXED.report.duplicates_merged],
    ['Cells rejected', MIXED.report.cells_rejected],
  ] as const) {
    await expect(report.getByRole('row', { name: label }).getByRole('cell'), label).toHaveText(String(n));
  }
  const rejected = dialog.getByRole('table', { name: 'Rejected cells' });
  await expect(rejected.locator('tbody tr')).toHaveCount(MIXED.rejected.length);
  const rejectedRows = await rejected.locator('tbody tr').allInnerTexts();
  MIXED.rejected.forEach(({ row, raw }, i) => {
    expect(rejectedRows[i]).toMatch(new RegExp(`\\b${row}\\b`));
    expect(rejectedRows[i], `${rejectedRows[i]} shows ${raw}`).toContain(raw);
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: /Download rejected cells/ }).click(),
  ]);
  const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
  expect(csv[0]).toEqual(['sheet', 'row_number', 'raw_value', 'reason']);
  expect(csv.slice(1).map((r) => Number(r[1]))).toEqual(MIXED.rejected.map((r) => r.row));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Home lists the job with a progress cell per source, first at 0 % (red), then polled to 100 %.
  const home = await settledTable(page, 'Jobs');
  expect(await headers(home)).toEqual(JOB_COLUMNS);
  const row = home.locator('tbody tr').filter({ hasText: 'E2E mixed job' });
  const jobId = (await row.locator('td').first().innerText()).trim();
  for (const m of MARKETPLACE_LIST) await expect(row.getByRole('link', { name: `View ${m.label}` })).toBeVisible();
  await expect(row.getByText('10 left', { exact: true })).toHaveCount(MARKETPLACE_LIST.length);
  await expect(row.getByText('0%', { exact: true })).toHaveCount(MARKETPLACE_LIST.length);
  nothingDoneYet = false;
  await expect(row.getByText('0 left', { exact: true }).nth(MARKETPLACE_LIST.length - 1)).toBeVisible({ timeout: 60_000 });
  await page.unrouteAll();
  await expect(row.getByText('100%', { exact: true })).toHaveCount(MARKETPLACE_LIST.length);
  await expect(row.getByText('0 left', { exact: true })).toHaveCount(MARKETPLACE_LIST.length);

  // /jobs from the sidebar: same job, and its View link opens that source filtered on it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  await expect(page.getByText(/^Last Refreshed: \d/)).toBeVisible();
  const jobs = await settledTable(page, 'Jobs');
  expect(await headers(jobs)).toEqual(JOB_COLUMNS);
  // The rejected cells stay downloadable from the job's row after the dialog is gone.
  const jobRow = jobs.locator('tbody tr').filter({ hasText: 'E2E mixed job' });
  const [later] = await Promise.all([
    page.waitForEvent('download'),
    jobRow.getByRole('button', { name: `${MIXED.report.cells_rejected} rejected` }).click(),
  ]);
  expect(
    parseCsv(readFileSync((await later.path())!, 'utf8'))
      .slice(1)
      .map((r) => Number(r[1])),
  ).toEqual(MIXED.rejected.map((r) => r.row));
  await jobRow.getByRole('link', { name: 'View Biblio' }).click();
  await expectPath(page, '/biblio');
  await expect(page.getByRole('heading', { name: 'Biblio Price Lookups' })).toBeVisible();
  await expect(page.getByLabel('Filter 1 field')).toHaveValue('isbn_lookup_job_id');
  await expect(page.getByLabel('Filter 1 value')).toHaveValue(jobId);
  const lookups = await settledTable(page, 'Biblio Price Lookups');
  await expectRowCount(lookups, MIXED.report.isbns_accepted);
  expect((await columnValues(lookups, 'Job ID')).filter((v) => v !== jobId)).toEqual([]);
});

test('filter and sort /jobs; sources a job does not use show N/A', async ({ userPage: page, user, api }) => {
  const csv = 'ISBN\n9780131457577\n';
  // Created oldest first: the default order (newest first) is the reverse.
  for (const name of ['bravo', 'alpha', 'charlie'])
    await seedJob(api, user.token, { name, content: csv, filename: `${name}.csv`, sources: { alibris: true } });
  const errors: string[] = [];
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  const expectNames = (table: Locator, names: string[]) => expect.poll(() => columnValues(table, 'Name')).toEqual(names);

  // Garbage in the URL: logged, read as no filters; a bad page is page 1.
  await page.goto('/jobs?page=zero&filters=%5B%7Bnot-json');
  await expect(page).toHaveURL((u) => u.searchParams.get('page') === '1');
  let table = await settledTable(page, 'Jobs');
  await expectNames(table, ['charlie', 'alpha', 'bravo']);
  await expect
    .poll(() => errors.some((e) => e.includes('filters')), { message: `a console error about the filters (saw ${JSON.stringify(errors)})` })
    .toBe(true);
  const first = table.locator('tbody tr').first();
  for (const label of ['Abe Books', 'Biblio', 'PalletIQ']) expect((await columnValues(table, label))[0], label).toBe('N/A');
  await expect(first.getByRole('link', { name: 'View Alibris' })).toBeVisible();

  // Filter: Name contains 'alp'.
  await page.getByRole('button', { name: 'Add filter' }).click();
  await expect(page.getByLabel('Filter 1 field')).toHaveValue('id');
  await expect(page.getByLabel('Filter 1 operator')).toHaveValue('equals');
  await expect(page.getByLabel('Filter 1 value')).toHaveValue('');
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Name' });
  await expect(page.getByLabel('Filter 1 operator').locator('option')).toHaveText(['equals', 'contains']);
  await page.getByLabel('Filter 1 operator').selectOption({ label: 'contains' });
  await page.getByLabel('Filter 1 value').fill('alp');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL((u) => JSON.parse(u.searchParams.get('filters') ?? 'null') !== null);
  table = await settledTable(page, 'Jobs');
  await expectRowCount(table, 1);
  await expectNames(table, ['alpha']);
  // Kept in the URL: a reload shows the same.
  await page.reload();
  await expectRowCount(await settledTable(page, 'Jobs'), 1);
  await expect(page.getByLabel('Filter 1 value')).toHaveValue('alp');

  // Number operators for Job ID; then remove the filter.
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Job ID' });
  await expect(page.getByLabel('Filter 1 operator').locator('option')).toHaveText([
    'equals',
    'greater than',
    'less than',
    'greater or equal',
    'less or equal',
  ]);
  await page.getByRole('button', { name: 'Remove filter 1' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL((u) => !u.searchParams.has('filters'));
  table = await settledTable(page, 'Jobs');
  await expectRowCount(table, 3);

  // Sort by Name: ascending, descending, then back to the default.
  const nameHeader = table.getByRole('columnheader', { name: 'Name', exact: true });
  await nameHeader.getByRole('button').click();
  await expect(page).toHaveURL((u) => u.searchParams.get('sort_by') === 'name' && u.searchParams.get('sort_direction') === 'asc');
  await expectNames(table, ['alpha', 'bravo', 'charlie']);
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await nameHeader.getByRole('button').click();
  await expect(page).toHaveURL((u) => u.searchParams.get('sort_direction') === 'desc');
  await expectNames(table, ['charlie', 'bravo', 'alpha']);
  await nameHeader.getByRole('button').click();
  await expect(page).toHaveURL((u) => !u.searchParams.has('sort_by'));
  await expectNames(table, ['charlie', 'alpha', 'bravo']);
  // Another column starts ascending.
  await table.getByRole('columnheader', { name: 'Input Filename' }).getByRole('button').click();
  await expectNames(table, ['alpha', 'bravo', 'charlie']);
});
