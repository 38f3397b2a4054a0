// Issue 10: an axe-core check of every page, no serious or critical violation. One walk cut in three
// tests that stand alone, so the two workers share it (as one test it was the run's longest, ~54 s,
// keeping one worker busy while the other ran out of files): the same pages, the same checks.
import { MARKETPLACE_LIST, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Page } from '@playwright/test';
import { ADMIN, type Api, expect, expectAccessible, test } from '../fixtures';
import { seedJob, settledTable, waitForJob } from '../jobs';

test.describe.configure({ mode: 'parallel' });

/** A superuser's page, once a job of theirs has finished: every table has rows to check. */
async function adminWithJob(api: Api, pageAs: (token: string) => Promise<Page>): Promise<Page> {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const job = await seedJob(api, token, { name: 'axe' });
  await waitForJob(api, token, job.id);
  return pageAs(token);
}

async function checkMarketplacePages(admin: Page, marketplaces: readonly MarketplaceInfo[]): Promise<void> {
  for (const m of marketplaces) {
    await admin.goto(`/${m.slug}`);
    await settledTable(admin, m.title);
    await expectAccessible(admin, `/${m.slug}`);
    // E2E_SCREENSHOTS=dir: pictures at desktop and phone widths to look at (never committed).
    const dir = process.env.E2E_SCREENSHOTS;
    if (dir) {
      for (const width of [1440, 390]) {
        await admin.setViewportSize({ width, height: 900 });
        await admin.screenshot({ path: `${dir}/${m.slug}-${width}.png`, fullPage: true });
      }
      await admin.setViewportSize({ width: 1440, height: 900 });
    }
  }
}

/** The marketplace pages, in two halves (one per test below). */
const half = Math.ceil(MARKETPLACE_LIST.length / 2);

test('the public pages and the items, admin and settings pages pass axe-core with no serious or critical violations', async ({
  page,
  pageAs,
  api,
}) => {
  for (const path of ['/login', '/signup', '/recover-password']) {
    await page.goto(path);
    await expect(page.getByRole('button').first()).toBeVisible();
    await expectAccessible(page, path);
  }
  const admin = await pageAs(await api.token(ADMIN.email, ADMIN.password));
  for (const [path, heading] of [
    ['/items', 'Items Management'],
    ['/admin', 'Users Management'],
    ['/settings', 'User Settings'],
  ] as const) {
    await admin.goto(path);
    await expect(admin.getByRole('heading', { name: heading })).toBeVisible();
    // Not 'networkidle': the live job events stream keeps a request open on every signed-in page.
    await expect(admin.locator('[aria-busy="true"]')).toHaveCount(0);
    await expectAccessible(admin, path);
  }
});

test('the home and jobs pages and the first marketplace pages pass axe-core with no serious or critical violations', async ({
  pageAs,
  api,
}) => {
  test.setTimeout(90_000);
  const admin = await adminWithJob(api, pageAs);
  await admin.goto('/');
  await settledTable(admin, 'Jobs');
  await expectAccessible(admin, '/');
  await admin.goto('/jobs');
  await settledTable(admin, 'Jobs');
  await expectAccessible(admin, '/jobs');
  await checkMarketplacePages(admin, MARKETPLACE_LIST.slice(0, half));
});

test('the other marketplace pages pass axe-core with no serious or critical violations', async ({ pageAs, api }) => {
  test.setTimeout(90_000);
  const admin = await adminWithJob(api, pageAs);
  await checkMarketplacePages(admin, MARKETPLACE_LIST.slice(half));
});
