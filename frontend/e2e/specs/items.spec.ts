// Items Management: add, edit, delete, paging by 5 (docs/requirements.md, Items).
import { TOAST, VALIDATION } from '../../src/lib/messages';
import { blur, expect, deleteRow, expectAccessible, expectToast, openRowDialog, test } from '../fixtures';

test('add, edit and delete an item', async ({ userPage: page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Items' }).click();
  await expect(page.getByRole('heading', { name: 'Items Management' })).toBeVisible();
  await expect(page.getByText("You don't have any items yet")).toBeVisible();
  for (const h of ['ID', 'Title', 'Description', 'Actions'])
    await expect(page.getByRole('columnheader', { name: h, exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Add Item' }).click();
  const add = page.getByRole('dialog', { name: 'Add Item' });
  await expect(add.getByLabel('Title')).toHaveAttribute('placeholder', 'Title');
  await expect(add.getByLabel('Description')).toHaveAttribute('placeholder', 'Description');
  await blur(add.getByLabel('Title'));
  await expect(add.getByText(VALIDATION.titleRequiredCreate, { exact: true })).toBeVisible();
  await add.getByLabel('Title').fill('First item');
  await add.getByLabel('Description').fill('Something to keep');
  await add.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.itemCreated);
  await expect(add).toBeHidden();
  // A toast on screen passes axe too: its close button is named, its message is legible.
  await expect(page.getByRole('button', { name: 'Close' })).toBeVisible();
  await expectAccessible(page, '/items with a toast');
  // The user's only item: on page 1 once the list has refetched.
  const rows = page.locator('table tbody tr');
  let row = rows.filter({ hasText: 'First item' });
  await expect(row).toBeVisible();
  // Short id on screen, the whole id on hover (issue 10).
  const id = row.getByTestId('item-id');
  const full = (await id.getAttribute('title'))!;
  expect(full.length, `short id of ${full}`).toBeGreaterThan(8);
  expect(full.startsWith((await id.innerText()).trim()), `short id of ${full}`).toBe(true);
  expect((await id.boundingBox())!.width, 'ID column narrow').toBeLessThan(100);
  await expect(row.getByText('Something to keep')).toBeVisible();

  const edit = await openRowDialog(page, row, 'Edit Item');
  await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
  await edit.getByLabel('Title').fill('');
  await blur(edit.getByLabel('Title'));
  await expect(edit.getByText(VALIDATION.titleRequiredEdit, { exact: true })).toBeVisible();
  await edit.getByLabel('Title').fill('Renamed item');
  await blur(edit.getByLabel('Title'));
  await expect(edit.getByText(VALIDATION.titleRequiredEdit, { exact: true })).not.toBeAttached();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.itemUpdated);
  row = rows.filter({ hasText: 'Renamed item' });
  await expect(row).toBeVisible();

  await deleteRow(page, row, 'item', 'permanently deleted');
  await expect(page.getByText("You don't have any items yet")).toBeVisible();
});

test('items are paged by 5 with Previous/Next and a validated page param', async ({ userPage: page, user, api }) => {
  for (let i = 1; i <= 7; i++) await api.createItem(user.token, `Paged ${i}`);
  await page.goto('/items?page=abc');
  await expect(page).toHaveURL((u) => u.searchParams.get('page') === '1');
  const rows = page.locator('table tbody tr');
  const expectRows = async (n: number) => {
    await expect(rows.filter({ hasText: 'Paged' })).toHaveCount(n);
    await expect(rows).toHaveCount(n);
  };
  await expectRows(5);
  const next = page.getByRole('button', { name: 'Next' });
  const previous = page.getByRole('button', { name: 'Previous' });
  await expect(previous).toBeDisabled();
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL((u) => u.searchParams.get('page') === '2');
  await expect(page.getByText('Page 2')).toBeVisible();
  await expectRows(2);
  await expect(next).toBeDisabled();
  await expect(previous).toBeEnabled();
  await previous.click();
  await expect(page).toHaveURL((u) => u.searchParams.get('page') === '1');
  await expectRows(5);
});
