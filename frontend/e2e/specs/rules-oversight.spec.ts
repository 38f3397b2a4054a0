// Rules a team shares and the superuser's oversight (issue 30): a rule set ending in an Otherwise
// rule, built with a known-values list, judges every row; a member reads the team default's rules
// and saves a copy; the system status page for a superuser at phone width (a normal user cannot
// reach it); a pallet's total stays on the job's cost box after a reload, and its audit row.
import { knownValues } from '@app/domain/known-values';
import { TOAST } from '../../src/lib/messages';
import { ADMIN, expect, expectAccessible, expectPath, expectToast, findRow, test } from '../fixtures';
import { columnValues, expectRowCount, isbnCsv, isbns, seedJob, settledTable, waitForJob } from '../jobs';

const stamp = () => Date.now().toString(36);

test('a rule set ending in an Otherwise rule, with a Best Source from its list, decides every book', async ({
  userPage: page,
  user,
  api,
}) => {
  test.setTimeout(120_000);
  const name = `Otherwise ${stamp()}`;
  const job = await seedJob(api, user.token, {
    name: `Judged ${stamp()}`,
    filename: 'otherwise.csv',
    content: isbnCsv(isbns(6, 630_300_000)),
    sources: { abe_books: true, biblio: true },
  });

  await page.goto('/rules');
  await page.getByRole('button', { name: 'Add Rule Set' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Rule Set' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Rule 1 outcome').fill('Buy');
  // Best Source holds a marketplace's name: the value is chosen from them, not typed.
  await dialog.getByLabel('Rule 1 condition 1 field').selectOption({ label: 'Best Source' });
  const value = dialog.getByLabel('Rule 1 condition 1 value');
  await expect(value).toHaveJSProperty('tagName', 'SELECT');
  const offered = await value.locator('option:not([disabled])').allInnerTexts();
  expect(offered).toEqual([...(knownValues('best_source') ?? [])]);
  await value.selectOption('Abe Books');

  await dialog.getByRole('button', { name: 'Add Otherwise rule' }).click();
  const otherwise = dialog.getByRole('region', { name: 'Rule 2' });
  await expect(otherwise.getByText('Rule 2: Otherwise')).toBeVisible();
  await expect(otherwise.getByText('Every row no rule above caught gets this outcome.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add Otherwise rule' })).toHaveCount(0);
  await dialog.getByLabel('Rule 2 outcome').fill('Pass');
  await expectAccessible(page, 'rule editor with an Otherwise rule', '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.ruleSetCreated);
  const row = await findRow(page, name);
  await expect(row.getByText('Otherwise: Pass')).toBeVisible();

  // Judged: every book is Buy or Pass, none "No rule" (unpriced ones too).
  await waitForJob(api, user.token, job.id);
  await page.goto(`/jobs/${job.id}`);
  const card = page.getByRole('region', { name: 'Decisions' });
  await card.getByRole('combobox', { name: 'Rule set' }).click();
  await page.getByRole('option', { name: `${name} (v1)` }).click();
  await card.getByRole('button', { name: 'Judge', exact: true }).click();
  await expect(card.getByText(`Judged with ${name}, version 1`)).toBeVisible();
  const table = await settledTable(page, 'Comparison');
  await expectRowCount(table, 6);
  await expect.poll(async () => new Set(await columnValues(table, 'Decision')).has('No rule')).toBe(false);
  const decisions = await columnValues(table, 'Decision');
  const sources = await columnValues(table, 'Best Source');
  // Abe Books' rows are bought; every other row, unpriced ones too, falls to Otherwise.
  expect(decisions).toEqual(sources.map((s) => (s === 'Abe Books' ? 'Buy' : 'Pass')));
});

test('a member reads the team default’s rules and saves them as a copy of their own', async ({ userPage: page, api }) => {
  const admin = { Authorization: `Bearer ${await api.token(ADMIN.email, ADMIN.password)}` };
  const name = `Team picks ${stamp()}`;
  const set = await api.call<{ id: number }>('POST', '/api/v1/rule-sets', {
    headers: admin,
    data: {
      name,
      rules: [
        { outcome: 'Buy', color: 'green', conditions: [{ field: 'best_price', operator: 'lt', value: '10' }] },
        { outcome: 'Reject', color: 'red', conditions: [] },
      ],
    },
  });
  await api.call('POST', `/api/v1/rule-sets/${set.id}/team-default`, { headers: admin });
  try {
    await page.goto('/rules');
    const row = await findRow(page, name);
    await expect(row.getByText('Team default')).toBeVisible();
    await row.getByRole('button', { name: `View rules of ${name}` }).click();
    const view = page.getByRole('dialog', { name });
    const rules = view.getByRole('list', { name: 'Rules' }).getByRole('listitem');
    await expect(rules).toHaveCount(2);
    await expect(rules.nth(0)).toContainText('Best Price less than 10');
    await expect(rules.nth(0)).toContainText('Buy');
    await expect(rules.nth(1)).toContainText('Otherwise');
    await expect(rules.nth(1)).toContainText('Reject');
    await expectAccessible(page, 'team default, read only', '[role="dialog"]');

    await view.getByRole('button', { name: 'Save as My Copy' }).click();
    const copy = page.getByRole('dialog', { name: 'Save as My Copy' });
    await expect(copy.getByLabel('Name')).toHaveValue(`${name} (my copy)`);
    await copy.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, TOAST.successTitle, TOAST.ruleSetCopied(`${name} (my copy)`));
    // Their own copy: its menu, not a read-only view.
    const mine = page.locator('table tbody tr').filter({ hasText: `${name} (my copy)` });
    await expect(mine.getByRole('button', { name: 'Actions' })).toBeEnabled();
  } finally {
    // Later specs' new jobs are judged with no team default.
    expect((await api.request.delete(`/api/v1/rule-sets/${set.id}/team-default`, { headers: admin })).ok()).toBe(true);
  }
});

test('the system status page: a superuser reads it on a phone; a normal user cannot reach it', async ({
  adminPage: page,
  userPage,
  user,
  api,
}) => {
  await page.goto('/admin');
  await page.getByRole('link', { name: 'System status' }).first().click();
  await expectPath(page, '/admin/status');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'System status' })).toBeVisible();
  for (const label of ['Abe Books', 'Biblio', 'Alibris', 'PalletIQ', 'Amazon', 'eBay'])
    await expect(page.getByRole('region', { name: label, exact: true })).toBeVisible();
  const ebay = page.getByRole('region', { name: 'eBay', exact: true });
  await expect(ebay.getByText(/of 5,000 calls left today/)).toBeVisible();
  await expect(ebay.getByText('Queued')).toBeVisible();
  // The app's own worker beats.
  await expect(
    page
      .getByRole('region', { name: /^Worker / })
      .first()
      .getByText('Beating'),
  ).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('status-390.png'), fullPage: true });
  await expectAccessible(page, '/admin/status at 390 px');

  // A normal user: no link, sent home from the address, and the API says 403.
  await userPage.goto('/admin/status');
  await expectPath(userPage, '/');
  await expect(userPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'System status' })).toHaveCount(0);
  const res = await api.request.get('/api/v1/health/status', { headers: { Authorization: `Bearer ${user.token}` } });
  expect(res.status()).toBe(403);
});

test('a pallet’s total stays on the cost box after a reload, and the cost change is in the audit trail', async ({
  userPage: page,
  adminPage,
  user,
  api,
}) => {
  const jobName = `Pallet ${stamp()}`;
  const job = await seedJob(api, user.token, {
    name: jobName,
    filename: 'pallet.csv',
    content: isbnCsv(isbns(11, 630_310_000)),
    sources: { abe_books: true },
  });
  await page.goto(`/jobs/${job.id}`);
  const cost = page.getByRole('region', { name: 'Cost per book' });
  await cost.getByText('Pallet cost', { exact: true }).click();
  await cost.getByRole('textbox', { name: 'Pallet cost (USD)' }).fill('$33');
  await cost.getByRole('button', { name: 'Save cost' }).click();
  const saved = 'Pallet $33.00 ÷ 11 books = $3.00 per book, subtracted from every Estimated Profit.';
  await expect(cost.getByTestId('job-cost')).toHaveText(saved);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Cost per book' }).getByTestId('job-cost')).toHaveText(saved);

  await adminPage.goto('/admin/audit');
  await adminPage.getByRole('button', { name: 'Add filter' }).click();
  await adminPage.getByLabel('Filter 1 field').selectOption({ label: 'Target' });
  await adminPage.getByLabel('Filter 1 operator').selectOption({ label: 'contains' });
  await adminPage.getByLabel('Filter 1 value').fill(jobName);
  await adminPage.getByRole('button', { name: 'Apply' }).click();
  const table = await settledTable(adminPage, 'Audit events');
  await expect.poll(async () => columnValues(table, 'Action')).toContain('job.cost_set');
  const actions = await columnValues(table, 'Action');
  const details = (await columnValues(table, 'Details'))[actions.indexOf('job.cost_set')];
  expect(details).toContain('"pallet_cost":33');
  expect(details).toContain('"cost_per_book_after":3');
});
