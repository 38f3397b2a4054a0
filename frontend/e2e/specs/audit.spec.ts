// The audit trail (/admin/audit): a user's action shows up for a superuser, found with the filter
// builder, sorted and downloaded as CSV; a normal user has no way in.
import { readFileSync } from 'node:fs';
import { expect, expectAccessible, expectPath, test } from '../fixtures';
import { columnValues, expectRowCount, isbnCsv, isbns, parseCsv, seedJob, settledTable } from '../jobs';

test('a superuser finds a user’s new job in the audit trail, sorts it and downloads it; a normal user cannot reach it', async ({
  adminPage: page,
  userPage,
  user,
  api,
}) => {
  const name = `Audited ${Date.now().toString(36)}`;
  await seedJob(api, user.token, { name, filename: 'audit.csv', content: isbnCsv(isbns(2, 700)), sources: { abe_books: true } });

  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit trail' }).click();
  await expectPath(page, '/admin/audit');
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();

  // Target contains the job's name: its one event, by the user who created it.
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Target' });
  await page.getByLabel('Filter 1 operator').selectOption({ label: 'contains' });
  await page.getByLabel('Filter 1 value').fill(name);
  await page.getByRole('button', { name: 'Apply' }).click();
  let table = await settledTable(page, 'Audit events');
  await expectRowCount(table, 1);
  expect(await columnValues(table, 'Action')).toEqual(['job.created']);
  expect(await columnValues(table, 'Actor')).toEqual([user.email]);
  expect(await columnValues(table, 'Target Type')).toEqual(['job']);
  expect((await columnValues(table, 'Details'))[0]).toContain('"input_filename":"audit.csv"');
  await expectAccessible(page, '/admin/audit');

  // Every event of that user, sorted by action: their sign-in comes before the job.
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Actor' });
  await page.getByLabel('Filter 1 operator').selectOption({ label: 'equals' });
  await page.getByLabel('Filter 1 value').fill(user.email);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('columnheader', { name: 'Action', exact: true }).getByRole('button').click();
  await expect(page).toHaveURL((u) => u.searchParams.get('sort_by') === 'action' && u.searchParams.get('sort_direction') === 'asc');
  table = await settledTable(page, 'Audit events');
  await expect.poll(async () => columnValues(table, 'Action')).toEqual(['auth.login_succeeded', 'job.created', 'user.created']);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^audit_events_\d{8}T\d{6}\.csv$/);
  const csv = parseCsv(readFileSync((await download.path()) ?? '', 'utf8'));
  expect(csv[0]?.slice(0, 4)).toEqual(['Event ID', 'At', 'Action', 'Actor']);
  expect(csv.slice(1).map((r) => r[2])).toEqual(['auth.login_succeeded', 'job.created', 'user.created']);

  // A normal user sees no link and is sent home from the address.
  await userPage.goto('/admin/audit');
  await expectPath(userPage, '/');
  await expect(userPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit trail' })).toHaveCount(0);
});
