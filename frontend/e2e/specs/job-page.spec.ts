// A job's own page: opened from the jobs table by the job's name, its run per marketplace, its
// ingest report, the comparison across marketplaces (filter, sort, CSV) and the price chart.
import { readFileSync } from 'node:fs';
import { COMPARISON_CSV_FIELDS } from '@app/domain/comparison';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { Page } from '@playwright/test';
import { type Api, expect, expectAccessible, expectPath, findRow, test } from '../fixtures';
import {
  MIXED,
  columnValues,
  expectRowCount,
  headers,
  parseCsv,
  seedJob,
  settledTable,
  showAllComparisonColumns,
  showProgress,
  waitForJob,
} from '../jobs';

// Every column (the page's default is a short set): ISBN, Title and Decision pinned on the left.
const COMPARISON_COLUMNS = [
  'ISBN',
  'Title',
  'Decision',
  'Author',
  'Publisher',
  'Year',
  'Abe Books',
  'Biblio',
  'Alibris',
  'Amazon',
  'eBay',
  'Best Price',
  'Best Source',
  'Spread',
  'Estimated Profit',
  'Amazon Sales Rank',
  'Amazon Lowest Used',
  'Amazon Lowest New',
  'Amazon Buy Box',
  // How fast it sells (docs/features/velocity.md).
  'Rank Drops 30d',
  'Rank Drops 90d',
  'Rank Drops 180d',
  'Avg Rank 90d',
  'Avg Rank 180d',
  'Sale Days 180d',
  'Rank Observations',
  'Velocity Source',
  'PalletIQ Decision',
  'PalletIQ Value',
  'Abe Books Change',
  'Biblio Change',
  'Alibris Change',
  'Amazon Change',
  'eBay Change',
  'Best Price Change',
];

/** "$1,234.50" → 1234.5; N/A → null. */
const amount = (text: string) => (text === 'N/A' ? null : Number(text.replace(/[^0-9.-]/g, '')));

test('open a job by its name: its run, its report, the comparison (filter, sort, CSV) and the price chart', async ({
  userPage: page,
  user,
  api,
}) => {
  test.setTimeout(120_000);
  const name = `Compare ${Date.now().toString(36)}`;
  const job = await seedJob(api, user.token, { name });
  await waitForJob(api, user.token, job.id);
  await showAllComparisonColumns(page, api, user.token);

  await page.goto('/jobs');
  const row = await findRow(page, name);
  await row.getByRole('link', { name }).click();
  await expectPath(page, `/jobs/${job.id}`);
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();

  // One card per marketplace, done (folded into one line: the results come first).
  await showProgress(page);
  for (const m of MARKETPLACE_LIST) {
    const card = page.getByRole('region', { name: `${m.label} run` });
    await expect(card.getByTestId('progress-percent'), m.label).toHaveText('100%');
    await expect(card.getByText(`${MIXED.report.isbns_accepted} of ${MIXED.report.isbns_accepted} looked up`)).toBeVisible();
    await expect(card.getByRole('table', { name: `${m.label} timing` }).getByRole('row', { name: /Finished/ })).not.toContainText('—');
  }

  // The ingest report, with its rejected cells downloadable.
  const report = page.getByRole('table', { name: 'Ingest report' });
  await expect(report.getByRole('row', { name: 'ISBNs accepted' }).getByRole('cell')).toHaveText(String(MIXED.report.isbns_accepted));
  await expect(report.getByRole('row', { name: 'Cells rejected' }).getByRole('cell')).toHaveText(String(MIXED.report.cells_rejected));
  const [rejections] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download rejected cells (CSV)' }).click(),
  ]);
  expect(parseCsv(readFileSync((await rejections.path())!, 'utf8'))).toHaveLength(MIXED.report.cells_rejected + 1);

  // The comparison: every accepted ISBN, in upload order.
  let table = await settledTable(page, 'Comparison');
  expect(await headers(table)).toEqual(COMPARISON_COLUMNS);
  await expectRowCount(table, MIXED.report.isbns_accepted);
  expect(await columnValues(table, 'ISBN')).toContain(MIXED.knownIsbn);

  // Sort by spread, largest first: the numbers descend, empty ones last.
  await table.getByRole('button', { name: 'Spread' }).click();
  await table.getByRole('button', { name: 'Spread' }).click();
  await expect(page).toHaveURL(/sort_by=spread/);
  await expect(page).toHaveURL(/sort_direction=desc/);
  table = await settledTable(page, 'Comparison');
  await expect(table.getByRole('columnheader', { name: 'Spread' })).toHaveAttribute('aria-sort', 'descending');
  const spreads = (await columnValues(table, 'Spread')).map(amount);
  const known = spreads.filter((s): s is number => s !== null);
  expect(known.length).toBeGreaterThan(0);
  expect(known).toEqual([...known].sort((a, b) => b - a));
  expect(spreads.slice(0, known.length)).toEqual(known);

  // The best price is the smallest of the selling marketplaces' prices (eBay's too) on every row
  // priced in USD.
  for (const r of await table.locator('tbody tr').all()) {
    const cells = (await r.locator('td').allInnerTexts()).map((t) => t.trim());
    const at = (label: string) => cells[COMPARISON_COLUMNS.indexOf(label)]!;
    const best = amount(at('Best Price'));
    const prices = ['Abe Books', 'Biblio', 'Alibris', 'Amazon', 'eBay']
      .map(at)
      .filter((c) => c.startsWith('$'))
      .map((c) => amount(c)!);
    if (best !== null) expect(best).toBe(Math.min(...prices));
  }

  // Filter: one ISBN.
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 1 field').selectOption({ label: 'ISBN' });
  await page.getByLabel('Filter 1 value').fill(MIXED.knownIsbn);
  await page.getByRole('button', { name: 'Apply' }).click();
  table = await settledTable(page, 'Comparison');
  await expectRowCount(table, 1);
  expect(await columnValues(table, 'ISBN')).toEqual([MIXED.knownIsbn]);

  // The CSV holds the filtered rows, every column.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^job_${job.id}_comparison_\\d{8}T\\d{6}\\.csv$`));
  const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
  expect(csv[0]).toEqual(COMPARISON_CSV_FIELDS.map((f) => f.label));
  expect(csv.slice(1).map((r) => r[0])).toEqual([MIXED.knownIsbn]);

  // The chart of prices, one series per selling marketplace.
  const chart = page.getByTestId('price-chart');
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  for (const label of ['Abe Books', 'Biblio', 'Alibris']) await expect(chart.getByText(label, { exact: true })).toBeVisible();

  await expectAccessible(page, 'job page');
  // E2E_SCREENSHOTS=dir: the page at desktop and phone widths, to look at (never committed).
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${dir}/job-page-${width}.png`, fullPage: true });
    }
  }
});

test('a running marketplace says how long it has left at its pace', async ({ userPage: page, user, api }) => {
  const job = await seedJob(api, user.token, { name: 'Pace job', sources: { alibris: true } });
  await waitForJob(api, user.token, job.id);
  // The summary as a run 400 of 1,000 in at 60 a minute would give it (the sandbox is too quick to catch one).
  await page.route(
    (u) => u.pathname === `/api/v1/jobs/${job.id}/summary`,
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { sources: Record<string, unknown>[] };
      for (const run of body.sources) Object.assign(run, { total: 1000, processed: 400, throughput_per_minute: 60, finished_at: null });
      await route.fulfill({ response, json: body });
    },
  );
  await page.goto(`/jobs/${job.id}`);
  await showProgress(page);
  const timing = page.getByRole('region', { name: 'Alibris run' }).getByRole('table', { name: 'Alibris timing' });
  await expect(timing.getByRole('row', { name: /Time left/ })).toContainText('about 10 min');
});

/**
 * Opens a finished job's page while its job and summary answer "nothing done yet" (the sandbox is
 * done before the page opens), then lets real answers through: reaching 100 % afterwards proves
 * the page refreshed by itself (no reload). Returns the job and the Alibris run card.
 */
async function openJobSeenAsUnstarted(page: Page, api: Api, token: string, name: string) {
  const job = await seedJob(api, token, { name, sources: { abe_books: true, alibris: true } });
  await waitForJob(api, token, job.id);
  let nothingDoneYet = true;
  await page.route(
    (u) => u.pathname === `/api/v1/jobs/${job.id}` || u.pathname === `/api/v1/jobs/${job.id}/summary`,
    async (route) => {
      if (!nothingDoneYet) return route.fallback();
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      for (const m of MARKETPLACE_LIST) {
        const source = body[m.id] as { processed_isbns: number } | undefined;
        if (source) source.processed_isbns = 0;
      }
      for (const run of (body.sources as { processed: number }[] | undefined) ?? []) run.processed = 0;
      await route.fulfill({ response, json: body });
    },
  );
  await page.goto(`/jobs/${job.id}`);
  const card = page.getByRole('region', { name: 'Alibris run' });
  await expect(card.getByTestId('progress-percent')).toHaveText('0%');
  nothingDoneYet = false;
  return { job, card };
}

test('live events refresh the page of a running job, with no polling', async ({ userPage: page, user, api }) => {
  test.setTimeout(120_000); // two runs of the job, at rates the other specs' jobs share
  const ready = page.waitForResponse((r) => r.url().endsWith('/api/v1/jobs/events'));
  const { job, card } = await openJobSeenAsUnstarted(page, api, user.token, 'Live job');
  await ready;
  // The stream is open, so the page does not poll: it stays at what it was told...
  const polled: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith(`/api/v1/jobs/${job.id}`)) polled.push(r.url());
  });
  await page.waitForTimeout(4000); // longer than the 3 s the page polls at without the stream
  expect(polled, 'no polling while the live stream is open').toEqual([]);
  await expect(card.getByTestId('progress-percent')).toHaveText('0%');
  // ...until the job changes: a re-price runs it again, and the worker's events refresh the page.
  await api.call('POST', `/api/v1/jobs/${job.id}/reprice`, { headers: { Authorization: `Bearer ${user.token}` } });
  // Done, the cards fold away; unfolded, they read 100 %.
  await showProgress(page);
  await expect(card.getByTestId('progress-percent')).toHaveText('100%');
  await expect(page.getByRole('region', { name: 'Abe Books run' }).getByTestId('progress-percent')).toHaveText('100%');
  await expect(page.getByRole('region', { name: 'Biblio run' })).toHaveCount(0);
});

test('with the event stream blocked, the page polls a running job until its last lookup ends', async ({ userPage: page, user, api }) => {
  test.setTimeout(120_000);
  await page.route('**/api/v1/jobs/events', (route) => route.abort());
  const { card } = await openJobSeenAsUnstarted(page, api, user.token, 'Polled job');
  await showProgress(page);
  await expect(card.getByTestId('progress-percent')).toHaveText('100%');
  await expect(page.getByRole('region', { name: 'Abe Books run' }).getByTestId('progress-percent')).toHaveText('100%');
});

test('a job that does not exist, or is another user’s, reads as not found', async ({ userPage: page, api }) => {
  const other = await api.user('job-page-other');
  const theirs = await seedJob(api, other.token, { name: 'Not yours', sources: { abe_books: true } });
  for (const id of [theirs.id, 99_999_999]) {
    await page.goto(`/jobs/${id}`);
    await expect(page.getByTestId('not-found')).toBeVisible();
  }
});
