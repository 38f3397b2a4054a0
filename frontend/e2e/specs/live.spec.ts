// Live progress: the jobs table follows the worker through server-sent events, without polling
// /jobs/jobs; with the event stream blocked it falls back to polling and still reaches 100 %.
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { seedJob, settledTable } from '../jobs';

const JOBS_LIST = (u: URL) => u.pathname === '/api/v1/jobs/jobs';
const EVENTS = (u: URL) => u.pathname === '/api/v1/jobs/events';
/** 12 valid ISBNs: enough lookups (Alibris' sandbox answers 2 a second) that progress is seen moving. */
const CSV = `ISBN\n${Array.from({ length: 12 }, (_, i) => isbn13(`978030640${String(615 + i).padStart(3, '0')}`)).join('\n')}\n`;

function isbn13(first12: string): string {
  const sum = [...first12].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${first12}${(10 - (sum % 10)) % 10}`;
}

/** Counts the page's jobs-list requests from now on. */
function countListRequests(page: Page): () => number {
  let n = 0;
  page.on('request', (r) => {
    if (JOBS_LIST(new URL(r.url()))) n++;
  });
  return () => n;
}

test('progress reaches 100 % through live events, with no polling of the jobs list', async ({ userPage: page, user, api }) => {
  test.setTimeout(90_000);
  const stream = page.waitForResponse((r) => EVENTS(new URL(r.url())) && r.status() === 200);
  await page.goto('/jobs');
  await stream;
  await settledTable(page, 'Jobs');
  const requests = countListRequests(page);
  // Created behind the page's back while the table had no unfinished job (so nothing polled): only
  // a pushed event can bring it onto the table.
  const job = await seedJob(api, user.token, { name: 'Live job', content: CSV, filename: 'live.csv', sources: { alibris: true } });
  const row = page.getByRole('table', { name: 'Jobs' }).locator('tbody tr').filter({ hasText: 'Live job' });
  await expect(row).toBeVisible();
  await expect(row.getByText('100%', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText('0 left', { exact: true })).toBeVisible();
  // The list was refetched on events; once the last one is in, a page left alone with the stream
  // open asks for nothing more (polling would within 3 s).
  expect(requests()).toBeGreaterThan(0);
  await page.waitForTimeout(1000);
  const afterDone = requests();
  await page.waitForTimeout(4000);
  expect(requests()).toBe(afterDone);
  expect(job.id).toBeGreaterThan(0);
});

test('with the event stream blocked, the jobs table polls and still reaches 100 %', async ({ userPage: page, user, api }) => {
  test.setTimeout(90_000);
  await page.route(EVENTS, (route) => route.abort());
  const job = await seedJob(api, user.token, { name: 'Polled job', content: CSV, filename: 'polled.csv', sources: { alibris: true } });
  // Until the test has seen the job unfinished, answers say nothing is done yet (the sandbox may be quicker).
  let nothingDoneYet = true;
  await page.route(JOBS_LIST, async (route) => {
    if (!nothingDoneYet) return route.fallback();
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, { processed_isbns: number }>[] };
    for (const j of body.data) for (const m of MARKETPLACE_LIST) j[m.id]!.processed_isbns = 0;
    await route.fulfill({ response, json: body });
  });
  const requests = countListRequests(page);
  await page.goto('/jobs');
  const row = page.getByRole('table', { name: 'Jobs' }).locator('tbody tr').filter({ hasText: 'Polled job' });
  await expect(row.getByText('0%', { exact: true })).toBeVisible();
  nothingDoneYet = false;
  await expect(row.getByText('100%', { exact: true })).toBeVisible({ timeout: 60_000 });
  // Reached by the fallback: more than the first load's request, with no click.
  expect(requests()).toBeGreaterThan(1);
  expect(job.id).toBeGreaterThan(0);
});
