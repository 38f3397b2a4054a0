// Items Management: add, edit, delete, paging by 5 (spec §2, §4, §5, §8).
import assert from 'node:assert/strict';
import { TOAST, VALIDATION } from '../../src/lib/messages';
import { blur, expectDisabled, expectToast, findRow, openLoggedIn, rowAction, seed } from '../harness/helpers';
import { e2e } from '../harness/test';

e2e('add, edit and delete an item', async ({ page }) => {
  const user = await seed.user('items');
  await openLoggedIn(page, user.token, '/');
  await page.getByRole('link', { name: 'Items' }).click();
  await page.getByRole('heading', { name: 'Items Management' }).waitFor();
  await page.getByText("You don't have any items yet").waitFor();
  for (const h of ['ID', 'Title', 'Description', 'Actions']) await page.getByRole('columnheader', { name: h, exact: true }).waitFor();

  await page.getByRole('button', { name: 'Add Item' }).click();
  const add = page.getByRole('dialog', { name: 'Add Item' });
  assert.equal(await add.getByLabel('Title').getAttribute('placeholder'), 'Title');
  assert.equal(await add.getByLabel('Description').getAttribute('placeholder'), 'Description');
  await blur(add.getByLabel('Title'));
  await add.getByText(VALIDATION.titleRequiredCreate, { exact: true }).waitFor();
  await add.getByLabel('Title').fill('First item');
  await add.getByLabel('Description').fill('Something to keep');
  await add.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.itemCreated);
  await add.waitFor({ state: 'hidden' });
  let row = await findRow(page, 'First item');
  // Short id on screen, the whole id on hover (issue 10).
  const id = row.getByTestId('item-id');
  const full = (await id.getAttribute('title'))!;
  assert.ok(full.length > 8 && full.startsWith((await id.innerText()).trim()), `short id of ${full}`);
  assert.ok((await id.boundingBox())!.width < 100, 'ID column narrow');
  await row.getByText('Something to keep').waitFor();

  await rowAction(page, row, 'Edit Item');
  const edit = page.getByRole('dialog', { name: 'Edit Item' });
  await expectDisabled(edit.getByRole('button', { name: 'Save' }));
  await edit.getByLabel('Title').fill('');
  await blur(edit.getByLabel('Title'));
  await edit.getByText(VALIDATION.titleRequiredEdit, { exact: true }).waitFor();
  await edit.getByLabel('Title').fill('Renamed item');
  await blur(edit.getByLabel('Title'));
  await edit.getByText(VALIDATION.titleRequiredEdit, { exact: true }).waitFor({ state: 'detached' });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.itemUpdated);
  row = await findRow(page, 'Renamed item');

  await rowAction(page, row, 'Delete Item');
  const confirm = page.getByRole('dialog', { name: 'Delete Item' });
  await confirm.getByText('permanently deleted').waitFor();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.deleted('item'));
  await page.getByText("You don't have any items yet").waitFor();
});

e2e('items are paged by 5 with Previous/Next and a validated page param', async ({ page }) => {
  const user = await seed.user('paging');
  for (let i = 1; i <= 7; i++) await seed.createItem(user.token, `Paged ${i}`);
  await openLoggedIn(page, user.token, '/items?page=abc');
  await page.waitForURL((u) => u.searchParams.get('page') === '1');
  const rows = page.locator('table tbody tr');
  await rows.filter({ hasText: 'Paged' }).first().waitFor();
  assert.equal(await rows.count(), 5);
  const next = page.getByRole('button', { name: 'Next' });
  const previous = page.getByRole('button', { name: 'Previous' });
  await expectDisabled(previous);
  await expectDisabled(next, false);
  await next.click();
  await page.waitForURL((u) => u.searchParams.get('page') === '2');
  await page.getByText('Page 2').waitFor();
  await eventuallyRows(rows, 2);
  await expectDisabled(next);
  await expectDisabled(previous, false);
  await previous.click();
  await page.waitForURL((u) => u.searchParams.get('page') === '1');
  await eventuallyRows(rows, 5);
});

async function eventuallyRows(rows: import('playwright-core').Locator, n: number) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await rows.count()) === n && (await rows.filter({ hasText: 'Paged' }).count()) === n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`expected ${n} rows, saw ${await rows.count()}`);
}
