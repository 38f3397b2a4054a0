// Steps shared by the jobs and marketplace specs: jobs created through the API (fast), waiting
// for the embedded worker to finish them, and reading tables and CSV files back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKETPLACE_IDS, type MarketplaceId } from '@app/domain/marketplaces';
import type { Locator, Page } from 'playwright-core';
import type { JobCreated, JobPublic } from '../../src/client/types.gen';
import { eventually } from './helpers';
import { world } from './world';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES = path.resolve(here, '../../../backend/test/fixtures/uploads');
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

const ALL: Record<MarketplaceId, boolean> = { abe_books: true, biblio: true, alibris: true, pallet_iq: true };

/** A job through POST /jobs/upload-file, as the Create Job modal would send it. */
export async function seedJob(token: string, opts: { name: string; file?: string; filename?: string; content?: string; sources?: Partial<Record<MarketplaceId, boolean>> }): Promise<JobCreated> {
  const sources = opts.sources ? Object.fromEntries(MARKETPLACE_IDS.map((id) => [id, !!opts.sources![id]])) : ALL;
  const form = new FormData();
  const bytes = opts.content !== undefined ? Buffer.from(opts.content) : readFileSync(opts.file ?? MIXED.file);
  form.append('file', new Blob([bytes]), opts.filename ?? path.basename(opts.file ?? MIXED.file));
  form.append('config', JSON.stringify({ name: opts.name, ...sources }));
  const res = await fetch(`${world().baseUrl}/api/v1/jobs/upload-file`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  if (!res.ok) throw new Error(`upload-file → ${res.status} ${text}`);
  return JSON.parse(text) as JobCreated;
}

async function readJob(token: string, id: number): Promise<JobPublic> {
  const res = await fetch(`${world().baseUrl}/api/v1/jobs/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await res.json()) as JobPublic;
}

export function jobDone(job: JobPublic): boolean {
  return MARKETPLACE_IDS.every((id) => !job[id].enabled || job[id].processed_isbns >= job[id].total_isbns);
}

/** Waits until the worker has looked up every ISBN of the job in every enabled source. */
export async function waitForJob(token: string, id: number, timeoutMs = 60_000): Promise<JobPublic> {
  let job: JobPublic | undefined;
  await eventually(
    async () => {
      job = await readJob(token, id);
      return jobDone(job);
    },
    `job ${id} to finish (queued lookups mean the worker is not running: see backend/src/main.ts)`,
    timeoutMs,
  );
  return job!;
}

/** The table with this accessible name, once its rows are real (not placeholders or a stale page). */
export async function settledTable(page: Page, name: string): Promise<Locator> {
  const table = page.getByRole('table', { name, exact: true });
  await table.locator('tbody tr').first().waitFor();
  await eventually(async () => (await table.getAttribute('aria-busy')) === 'false', `table ${name} to finish loading`);
  return table;
}

export async function headers(table: Locator): Promise<string[]> {
  return (await table.locator('thead th').allInnerTexts()).map((t) => t.trim());
}

/** Cell texts of one column, by header text. */
export async function columnValues(table: Locator, header: string): Promise<string[]> {
  const i = (await headers(table)).indexOf(header);
  assert.ok(i >= 0, `no column ${header}`);
  return (await table.locator(`tbody tr td:nth-child(${i + 1})`).allInnerTexts()).map((t) => t.trim());
}

/** Waits until the table holds `n` data rows (0: the 'No results found' row). */
export async function expectRowCount(table: Locator, n: number): Promise<void> {
  await eventually(async () => {
    if ((await table.getAttribute('aria-busy')) !== 'false') return false;
    const empty = (await table.getByText('No results found').count()) > 0;
    return (empty ? 0 : await table.locator('tbody tr').count()) === n;
  }, `${n} rows in the table`);
}

/** RFC 4180 CSV (quoted fields, doubled quotes, newlines inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

/** Holds the list calls of a page for `ms`, so its placeholder rows can be seen. */
export async function slowDown(page: Page, urlPart: string, ms: number): Promise<() => Promise<void>> {
  const pattern = (url: URL) => url.pathname.endsWith(urlPart);
  await page.route(pattern, async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.fallback();
  });
  return () => page.unroute(pattern);
}
