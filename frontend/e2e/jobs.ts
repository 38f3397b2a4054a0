// Steps shared by the jobs, marketplace and table specs: jobs created through the API (fast),
// waiting for the embedded worker to finish them, and reading tables and CSV files back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPARISON_FIELDS } from '@app/domain/comparison';
import { MARKETPLACE_IDS, byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';
import type { Locator, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import type { JobCreated, JobPublic } from '../src/client/types.gen';
import { comparisonColumnsKey } from '../src/components/jobpage/comparison-columns';
import { expect, type Api } from './fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES = path.resolve(here, '../../backend/test/fixtures/uploads');
/** backend/test/fixtures/uploads/make-fixtures.sh: mixed.xlsx's expected ingest report. */
export const MIXED = {
  file: path.join(FIXTURES, 'mixed.xlsx'),
  report: { rows_read: 16, isbns_accepted: 10, duplicates_merged: 2, cells_rejected: 4 },
  rejected: [
    { row: 4, raw: '9.78049E+12' },
    { row: 10, raw: '9780131457578' },
    { row: 13, raw: '978013145757' },
    { row: 17, raw: '0131457579' },
  ],
  /** Row 2 as ISBN-13; its ISBN-10 form at row 7 was merged into it. */
  knownIsbn: '9780131457577',
};

/** Valid ISBN-13s 978 + nine digits from `first` on (each spec picks a range no other uses) + check digit. */
export function isbns(count: number, first: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const body = `978${String(first + i).padStart(9, '0')}`;
    const sum = [...body].reduce((s, d, j) => s + Number(d) * (j % 2 ? 3 : 1), 0);
    return `${body}${(10 - (sum % 10)) % 10}`;
  });
}

/** A one-column CSV upload of these ISBNs. */
export const isbnCsv = (list: string[]) => ['isbn', ...list].join('\n');

/**
 * Creates a job through the Create Job dialog: its name, the marketplaces ticked (by label) and a
 * CSV of `list`; waits for the ingest report, then closes the dialog.
 */
export async function createJobInDialog(page: Page, name: string, labels: readonly string[], list: string[]): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'New Job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Job' });
  await dialog.getByLabel('Job Name').fill(name);
  for (const label of labels) await dialog.getByRole('checkbox', { name: label, exact: true }).check();
  await dialog.locator('input[type=file]').setInputFiles({ name: 'isbns.csv', mimeType: 'text/csv', buffer: Buffer.from(isbnCsv(list)) });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByRole('table', { name: 'Ingest report' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}

/** A job through POST /jobs/upload-file, as the Create Job modal would send it. */
export function seedJob(
  api: Api,
  token: string,
  opts: { name: string; file?: string; filename?: string; content?: string; sources?: Partial<Record<MarketplaceId, boolean>> },
): Promise<JobCreated> {
  const sources = byMarketplace((m) => (opts.sources ? !!opts.sources[m.id] : true));
  const buffer = opts.content !== undefined ? Buffer.from(opts.content) : readFileSync(opts.file ?? MIXED.file);
  return api.call<JobCreated>('POST', '/api/v1/jobs/upload-file', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      file: { name: opts.filename ?? path.basename(opts.file ?? MIXED.file), mimeType: 'application/octet-stream', buffer },
      config: JSON.stringify({ name: opts.name, ...sources }),
    },
  });
}

export function jobDone(job: JobPublic): boolean {
  return MARKETPLACE_IDS.every((id) => !job[id].enabled || job[id].processed_isbns >= job[id].total_isbns);
}

/** Waits until the worker has looked up every ISBN of the job in every enabled source. */
export async function waitForJob(api: Api, token: string, id: number, timeout = 60_000): Promise<void> {
  await expect
    .poll(async () => jobDone(await api.call<JobPublic>('GET', `/api/v1/jobs/${id}`, { headers: { Authorization: `Bearer ${token}` } })), {
      message: `job ${id} to finish (queued lookups mean the worker is not running: see backend/src/main.ts)`,
      timeout,
    })
    .toBe(true);
}

/** The table with this accessible name, once its rows are real (not placeholders or a stale page). */
export async function settledTable(page: Page, name: string): Promise<Locator> {
  const table = page.getByRole('table', { name, exact: true });
  await expect(table.locator('tbody tr').first()).toBeAttached();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  return table;
}

export async function headers(table: Locator): Promise<string[]> {
  return (await table.locator('thead th').allInnerTexts()).map((t) => t.trim());
}

/** Cell texts of one column, by header text. */
export async function columnValues(table: Locator, header: string): Promise<string[]> {
  const i = (await headers(table)).indexOf(header);
  expect(i, `no column ${header}`).toBeGreaterThanOrEqual(0);
  return (await table.locator(`tbody tr td:nth-child(${i + 1})`).allInnerTexts()).map((t) => t.trim());
}

/** Waits until the table holds `n` data rows (0: the 'No results found' row). */
export async function expectRowCount(table: Locator, n: number): Promise<void> {
  await expect
    .poll(
      async () => {
        if ((await table.getAttribute('aria-busy')) !== 'false') return 'loading';
        return (await table.getByText('No results found').count()) > 0 ? 0 : table.locator('tbody tr').count();
      },
      { message: `${n} rows in the table` },
    )
    .toBe(n);
}

/** A CSV file's rows (RFC 4180), blank lines left out. */
export function parseCsv(text: string): string[][] {
  return parse(text, { skip_empty_lines: true, relax_column_count: true }) as string[][];
}

/** Holds the page's calls whose path ends in `urlPart` until the returned release() is called. */
export async function holdRequests(page: Page, urlPart: string): Promise<() => Promise<void>> {
  const pattern = (url: URL) => url.pathname.endsWith(urlPart);
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  await page.route(pattern, async (route) => {
    await gate;
    await route.fallback();
  });
  return async () => {
    open();
    await page.unroute(pattern);
  };
}

/**
 * Unfolds a finished job's progress cards: once every marketplace is done they fold into one line.
 * Waits for that line, so a page opened while the job ran is first brought up to date; as long as
 * waitForJob waits, since a job re-priced just before is still being priced, at the marketplaces'
 * rates, which the other specs' jobs share (Alibris at 80 % after the 10 s a click waits, once, with
 * three specs at a time).
 */
export async function showProgress(page: Page, timeout = 60_000): Promise<void> {
  const unfold = page.getByRole('button', { name: 'show progress' });
  await expect(unfold).toBeVisible({ timeout });
  await unfold.click();
}

/**
 * Has the comparison show every column the field table marks as one (the page's default is a short
 * set), for specs reading many columns: the user's remembered choice, written before the page loads.
 */
export async function showAllComparisonColumns(page: Page, api: Api, token: string): Promise<void> {
  const me = await api.call<{ id: string }>('GET', '/api/v1/users/me', { headers: { Authorization: `Bearer ${token}` } });
  const names = COMPARISON_FIELDS.filter((f) => f.column).map((f) => f.name);
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    comparisonColumnsKey(me.id),
    JSON.stringify(names),
  ] as const);
}
