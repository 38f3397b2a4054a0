// Decisions on a job's page: judge the job with a rule set, see the Decision column and the counts
// per decision, filter the comparison by one by clicking its count, and download its buy list.
// The rule set is made through the rule set API (the editor has its own spec).
import { readFileSync } from 'node:fs';
import { COMPARISON_CSV_FIELDS } from '@app/domain/comparison';
import { expect, expectAccessible, test } from '../fixtures';
import { MIXED, columnValues, expectRowCount, headers, parseCsv, seedJob, settledTable, waitForJob } from '../jobs';

test('judge a job with a rule set: Decision column, counts, filter by a decision, download the buy list', async ({
  userPage: page,
  user,
  api,
}) => {
  test.setTimeout(120_000);
  const auth = { Authorization: `Bearer ${user.token}` };
  const ruleSet = `Shelf rules ${Date.now().toString(36)}`;
  await api.call('POST', '/api/v1/rule-sets', {
    headers: auth,
    data: {
      name: ruleSet,
      rules: [
        { outcome: 'Buy', color: 'green', conditions: [{ field: 'best_price', operator: 'lt', value: '40' }] },
        { outcome: 'Pass', color: 'red', conditions: [{ field: 'best_price', operator: 'gte', value: '40' }] },
      ],
    },
  });
  const job = await seedJob(api, user.token, { name: `Judge ${Date.now().toString(36)}` });
  await waitForJob(api, user.token, job.id);

  await page.goto(`/jobs/${job.id}`);
  const card = page.getByRole('region', { name: 'Decisions' });
  await expect(card.getByText('Not judged yet')).toBeVisible();
  // The page has laid out its results before the rule set is chosen: on a busy machine the
  // comparison arriving under an open list once moved the page and the list closed (a person waits
  // for the page too).
  await settledTable(page, 'Comparison');
  await card.getByRole('combobox', { name: 'Rule set' }).click();
  await page.getByRole('option', { name: `${ruleSet} (v1)` }).click();
  await card.getByRole('button', { name: 'Judge', exact: true }).click();
  await expect(card.getByText(`Judged with ${ruleSet}, version 1`)).toBeVisible();

  // Counts per decision in rule order, No rule last, adding up to the job's ISBNs.
  const counts = card.getByRole('table', { name: 'Decision counts' }).locator('tbody tr');
  await expect(counts).toHaveCount(3);
  const parsed = await counts.evaluateAll((rows) =>
    rows.map((r) => ({
      outcome: r.getAttribute('data-outcome') ?? '',
      count: Number(r.querySelector('[data-testid="decision-count"]')?.textContent),
    })),
  );
  expect(parsed.map((p) => p.outcome)).toEqual(['Buy', 'Pass', 'No rule']);
  expect(parsed.reduce((n, p) => n + p.count, 0)).toBe(MIXED.report.isbns_accepted);
  const buy = parsed[0]!.count;
  expect(buy).toBeGreaterThan(0);

  // The Decision column pinned after the ISBN and title, one badge per row.
  let table = await settledTable(page, 'Comparison');
  const columns = await headers(table);
  expect(columns.slice(0, 3)).toEqual(['ISBN', 'Title', 'Decision']);
  expect(new Set(await columnValues(table, 'Decision'))).toEqual(new Set(parsed.filter((p) => p.count > 0).map((p) => p.outcome)));

  // A count filters the table to its decision and scrolls to it (on a phone they are screens apart).
  const desk = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const comparisonTitle = page.getByRole('heading', { name: 'Comparison', level: 3 });
  // The first count at the bottom of the screen: the comparison is out of sight below it.
  await counts.first().evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await expect(comparisonTitle).not.toBeInViewport();
  await counts.first().getByRole('button').first().click();
  await expect(page).toHaveURL(/decision/);
  await expect(comparisonTitle).toBeInViewport();
  if (desk) await page.setViewportSize(desk);
  table = await settledTable(page, 'Comparison');
  await expectRowCount(table, buy);
  expect(new Set(await columnValues(table, 'Decision'))).toEqual(new Set(['Buy']));
  const shown = await columnValues(table, 'ISBN');

  // The buy list: the comparison CSV of that decision's rows.
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Buy as CSV' }).click()]);
  const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
  expect(csv[0]).toEqual(COMPARISON_CSV_FIELDS.map((f) => f.label));
  const decision = COMPARISON_CSV_FIELDS.findIndex((f) => f.name === 'decision');
  expect(csv.slice(1).map((r) => r[decision])).toEqual(Array(buy).fill('Buy'));
  expect(csv.slice(1).map((r) => r[0])).toEqual(shown);

  await expectAccessible(page, 'job page with decisions');
});
