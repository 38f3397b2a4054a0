// Create Job from pasted or scanned ISBNs: a barcode scanner types each code and presses Enter,
// which adds a line and never submits; the live count reads the list as the API will; the report
// names the rejected UPC and why; the job lists its ISBNs like an upload's.
import { ISBN_REJECTION } from '@app/domain/isbn';
import { PASTE_MESSAGES } from '@app/domain/isbn-list';
import { REJECTIONS_KEPT } from '../app-env';
import { blur, expect, expectAccessible, expectPath, test } from '../fixtures';
import { columnValues, expectRowCount, settledTable } from '../jobs';

// What a scanner sends: an EAN-13, the same book's ISBN-10 typed by hand, an EAN with its 5-digit
// price add-on run together, a hyphenated ISBN, a mass-market paperback's UPC, another EAN.
const SCANNED = ['9780306406157', '0306406152', '978013145757751299', '978-0-486-22987-4', '036000291452', '9781861972712'];
const ACCEPTED = 4;

test('create a job by scanning ISBNs, with a live count and the report of the rejected UPC', async ({ userPage: page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'New Job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Job' });
  await dialog.getByLabel('Job Name').fill('E2E scanned shelf');
  await dialog.getByRole('checkbox', { name: 'Abe Books', exact: true }).check();

  // The spec's file mode is the default; the list takes the focus when its mode is chosen.
  await expect(dialog.getByRole('radio', { name: 'Upload file' })).toBeChecked();
  await dialog.getByText('Paste or scan ISBNs', { exact: true }).click();
  const list = dialog.getByRole('textbox', { name: 'ISBNs' });
  await expect(list).toBeFocused();
  await expect(dialog.getByRole('button', { name: /File/ })).toHaveCount(0);

  // Nothing entered: the form says so instead of sending.
  const create = dialog.getByRole('button', { name: 'Create Job' });
  await blur(list);
  await expect(dialog.getByText(PASTE_MESSAGES.empty, { exact: true })).toBeVisible();
  await create.click();
  await expect(dialog.getByText(PASTE_MESSAGES.empty, { exact: true })).toBeVisible();
  await expect(dialog.getByTestId('upload-report')).toHaveCount(0);

  // The scanner: each code then Enter. Enter adds a line; the dialog stays a form.
  const count = dialog.getByTestId('pasted-count');
  await list.focus();
  for (const [i, code] of SCANNED.entries()) {
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    if (i === 0) await expect(count).toHaveText('1 ISBN ready');
  }
  await expect(list).toHaveValue(`${SCANNED.join('\n')}\n`);
  await expect(dialog.getByTestId('upload-report')).toHaveCount(0);
  await expect(dialog.getByText(PASTE_MESSAGES.empty, { exact: true })).toHaveCount(0);
  await expect(count).toHaveText(`${ACCEPTED} ISBNs ready · 1 duplicate merged · 1 not recognised`);

  // The reason is there before sending, on demand.
  await dialog.getByRole('button', { name: 'Show reasons' }).click();
  const preview = dialog.getByRole('table', { name: 'Codes not recognised' });
  await expect(preview.locator('tbody tr')).toHaveText([`5036000291452${ISBN_REJECTION.upc}`]);
  // The form only: the modal's own close button (shared by every dialog) has no name yet.
  await expectAccessible(page, 'Create Job, paste mode', '[role=dialog] form');

  await create.click();
  const report = dialog.getByRole('table', { name: 'Ingest report' });
  await expect(dialog.getByText(/created from the pasted list\.$/)).toBeVisible();
  for (const [label, n] of [
    ['Lines read', SCANNED.length],
    ['ISBNs accepted', ACCEPTED],
    ['Duplicates merged', 1],
    ['Codes rejected', 1],
  ] as const) {
    await expect(report.getByRole('row', { name: label }).getByRole('cell'), label).toHaveText(String(n));
  }
  const rejected = dialog.getByRole('table', { name: 'Rejected cells' });
  await expect(rejected.getByRole('columnheader')).toHaveText(['Line', 'Value', 'Reason']);
  await expect(rejected.locator('tbody tr td')).toHaveText(['5', '036000291452', ISBN_REJECTION.upc]);
  await expect(dialog.getByRole('button', { name: /Download rejected cells/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // The jobs table has it, named after the pasted list, with one lookup per accepted ISBN.
  const jobs = await settledTable(page, 'Jobs');
  const row = jobs.locator('tbody tr').filter({ hasText: 'E2E scanned shelf' });
  await expect(row.getByText('pasted list', { exact: true })).toBeVisible();
  const jobId = (await row.locator('td').first().innerText()).trim();
  await expect(row.getByText(/^\d+ left$/)).toHaveText(/^[0-4] left$/);
  for (const label of ['Biblio', 'Alibris', 'PalletIQ'])
    await expect(row.getByLabel(`View ${label} lookups of job ${jobId}`)).toHaveCount(0);
  await row.getByLabel(`View Abe Books lookups of job ${jobId}`).click();
  await expectPath(page, '/abe-books');
  const lookups = await settledTable(page, 'Abe Books Price Lookups');
  await expectRowCount(lookups, ACCEPTED);
  expect((await columnValues(lookups, 'ISBN')).sort()).toEqual(['9780131457577', '9780306406157', '9780486229874', '9781861972712']);
});

test('a pasted list without any ISBN is refused in the dialog; switching back to the file keeps the spec form', async ({
  userPage: page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'New Job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Job' });
  await dialog.getByRole('checkbox', { name: 'Biblio', exact: true }).check();
  await dialog.getByText('Paste or scan ISBNs', { exact: true }).click();
  // Pasted from a spreadsheet: cells separated by tabs, nothing that is an ISBN.
  await dialog.getByRole('textbox', { name: 'ISBNs' }).fill('Title\tPrice\nThe Hobbit\t12.99');
  await expect(dialog.getByTestId('pasted-count')).toHaveText('0 ISBNs ready · 4 not recognised');
  await dialog.getByRole('button', { name: 'Create Job' }).click();
  await expect(dialog.getByText(PASTE_MESSAGES.noneRecognised, { exact: true })).toBeVisible();

  // Back to the file: the spec's field, message and Upload button, the list's error gone.
  await dialog.getByText('Upload file', { exact: true }).click();
  await expect(dialog.getByText(PASTE_MESSAGES.noneRecognised, { exact: true })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByText('File is required.', { exact: true })).toBeVisible();
});

test('a paste of mostly junk keeps the first rejected codes and says how many more were only counted', async ({ userPage: page }) => {
  // Three more junk codes than the server keeps (UPLOAD_MAX_REJECTIONS_KEPT, set for the browser run).
  const junk = Array.from({ length: REJECTIONS_KEPT + 3 }, (_, i) => `junk${i}`);
  await page.goto('/');
  await page.getByRole('button', { name: 'New Job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Job' });
  await dialog.getByLabel('Job Name').fill('E2E junk paste');
  await dialog.getByRole('checkbox', { name: 'Abe Books', exact: true }).check();
  await dialog.getByText('Paste or scan ISBNs', { exact: true }).click();
  await dialog.getByRole('textbox', { name: 'ISBNs' }).fill(['9780306406157', ...junk].join('\n'));
  await dialog.getByRole('button', { name: 'Create Job' }).click();
  const report = dialog.getByRole('table', { name: 'Ingest report' });
  await expect(report.getByRole('row', { name: 'Codes rejected' }).getByRole('cell')).toHaveText(String(REJECTIONS_KEPT + 3));
  await expect(report.getByRole('row', { name: 'Rejected values not kept (over the limit)' }).getByRole('cell')).toHaveText('3');
});
