// The specs' `test` and `expect`: Playwright's, extended with
//   api       (worker) seeding through the HTTP API, which is fast; the UI is what is under test
//   user      a fresh ordinary user, signed up through the API
//   pageAs    a page in its own browser context, logged in with a token (as the login page stores it)
//   userPage  pageAs(user.token);  adminPage  pageAs(the first superuser's token)
//   mailbox   the mail global-setup.ts's SMTP server received since the test began
// plus the steps several specs share, with the spec's own texts from src/lib/messages.ts.
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { ADMIN, baseUrl, mailDir } from './app-env';
import { TOAST, VALIDATION, type RecordKind } from '../src/lib/messages';

export { ADMIN, expect };

let counter = 0;
/** A unique, valid address per call (tests share one database). */
export function uniqueEmail(tag: string): string {
  counter++;
  return `${tag}-${Date.now().toString(36)}-${counter}@example.com`;
}

export interface User {
  email: string;
  password: string;
  fullName: string;
  token: string;
}

/** The HTTP API, for seeding. Every call fails loudly on a non-2xx answer. */
export class Api {
  constructor(readonly request: APIRequestContext) {}

  async call<T>(method: 'GET' | 'POST', url: string, opts: Parameters<APIRequestContext['fetch']>[1] = {}): Promise<T> {
    const res = await this.request.fetch(url, { method, ...opts });
    const text = await res.text();
    if (!res.ok()) throw new Error(`${method} ${url} → ${res.status()} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  signUp(email: string, password: string, full_name: string) {
    return this.call('POST', '/api/v1/users/signup', { data: { email, password, full_name } });
  }

  async token(email: string, password: string): Promise<string> {
    return (await this.call<{ access_token: string }>('POST', '/api/v1/login/access-token', { form: { username: email, password } }))
      .access_token;
  }

  createItem(token: string, title: string, description?: string) {
    return this.call('POST', '/api/v1/items/', { headers: { Authorization: `Bearer ${token}` }, data: { title, description } });
  }

  /** A fresh ordinary user, signed up through the API; returns its credentials and token. */
  async user(tag: string, fullName = 'Test User'): Promise<User> {
    const email = uniqueEmail(tag);
    const password = 'password123';
    await this.signUp(email, password, fullName);
    return { email, password, fullName, token: await this.token(email, password) };
  }

  /** A fresh user the superuser has marked "decisions only" (Edit User), as a scout's account is. */
  async decisionsOnlyUser(tag: string): Promise<User> {
    const scout = await this.user(tag);
    const me = await this.call<{ id: string }>('GET', '/api/v1/users/me', { headers: { Authorization: `Bearer ${scout.token}` } });
    const admin = await this.token(ADMIN.email, ADMIN.password);
    const marked = await this.request.fetch(`/api/v1/users/${me.id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${admin}` },
      data: { decisions_only: true },
    });
    expect(marked.ok()).toBe(true);
    return scout;
  }
}

export interface Mail {
  to: string[];
  subject: string;
  /** The text part (or the HTML's text) followed by the HTML source. */
  text: string;
}

export interface Mailbox {
  /** The first message to `address` received since the test began, waiting for it if need be. */
  waitForMail(address: string, opts?: { timeout?: number }): Promise<Mail>;
}

interface TestFixtures {
  user: User;
  /** `storage`: more localStorage entries for the app's origin, e.g. a remembered column choice. */
  pageAs: (token: string, storage?: Record<string, string>) => Promise<Page>;
  userPage: Page;
  adminPage: Page;
  mailbox: Mailbox;
}

interface WorkerFixtures {
  api: Api;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  api: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext({ baseURL: baseUrl() });
      await use(new Api(request));
      await request.dispose();
    },
    { scope: 'worker' },
  ],

  user: async ({ api }, use, testInfo) => {
    const tag = testInfo.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 20)
      .replace(/-$/, '');
    await use(await api.user(tag));
  },

  pageAs: async ({ browser }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async (token, storage = {}) => {
      const localStorage = Object.entries({ access_token: token, ...storage }).map(([name, value]) => ({ name, value }));
      // baseURL, viewport and timeouts come from the config, as for the built-in `page`.
      const context = await browser.newContext({
        storageState: { cookies: [], origins: [{ origin: new URL(baseUrl()).origin, localStorage }] },
      });
      contexts.push(context);
      return context.newPage();
    });
    for (const c of contexts) await c.close();
  },

  userPage: async ({ pageAs, user }, use) => {
    await use(await pageAs(user.token));
  },

  adminPage: async ({ pageAs, api }, use) => {
    await use(await pageAs(await api.token(ADMIN.email, ADMIN.password)));
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern as a fixture's first argument.
  mailbox: async ({}, use) => {
    const since = Date.now();
    const find = async (address: string): Promise<Mail | undefined> => {
      const files = (await readdir(mailDir())).filter((f) => f.endsWith('.json')).sort();
      for (const f of files) {
        const m = JSON.parse(await readFile(path.join(mailDir(), f), 'utf8')) as { to: string[]; at: number; raw: string };
        if (m.at < since || !m.to.some((t) => t.toLowerCase() === address.toLowerCase())) continue;
        const parsed = await simpleParser(m.raw);
        return { to: m.to, subject: parsed.subject ?? '', text: `${parsed.text ?? ''}\n${parsed.html || ''}` };
      }
      return undefined;
    };
    await use({
      async waitForMail(address, { timeout = 15_000 } = {}) {
        let mail: Mail | undefined;
        await expect
          .poll(
            async () => {
              mail = await find(address);
              return mail !== undefined;
            },
            { message: `an email to ${address}`, timeout },
          )
          .toBe(true);
        return mail!;
      },
    });
  },
});

export async function logInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** A Mantine notification with this title and message. */
export function toast(page: Page, title: string, message: string): Locator {
  return page.locator('.mantine-Notification-root').filter({ hasText: title }).filter({ hasText: message }).first();
}

export async function expectToast(page: Page, title: string, message: string): Promise<void> {
  await expect(toast(page, title, message)).toBeVisible();
}

export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === pathname);
}

/** Blurs a field so its validation runs (forms validate on first blur). */
export async function blur(locator: Locator): Promise<void> {
  await locator.focus();
  await locator.blur();
}

/**
 * Types a new password, then a different confirmation (the mismatch message shows) and the same one
 * (it goes): the rule shared by the password tab and the reset page.
 */
export async function fillNewPasswordCheckingConfirmation(page: Page, password: string, mismatch: string): Promise<void> {
  const confirm = page.getByLabel('Confirm Password');
  await page.getByLabel('New Password').fill(password);
  await confirm.fill(mismatch);
  await blur(confirm);
  await expect(page.getByText(VALIDATION.passwordsDoNotMatch)).toBeVisible();
  await confirm.fill(password);
  await blur(confirm);
  await expect(page.getByText(VALIDATION.passwordsDoNotMatch)).not.toBeAttached();
}

/** Opens a row's Actions menu and picks an entry, e.g. 'Edit Item'. */
export async function rowAction(page: Page, row: Locator, entry: string): Promise<void> {
  await row.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

/** Opens `entry` (e.g. "Edit User") from a row's Actions menu: the dialog it opens, which bears the same name. */
export async function openRowDialog(page: Page, row: Locator, entry: string): Promise<Locator> {
  await rowAction(page, row, entry);
  return page.getByRole('dialog', { name: entry });
}

/** Deletes a row's user, item or rule set through its Actions menu, once the confirmation has said `warning`. */
export async function deleteRow(page: Page, row: Locator, what: RecordKind, warning: string): Promise<void> {
  const confirm = await openRowDialog(page, row, `Delete ${what.replace(/\b\w/g, (c) => c.toUpperCase())}`);
  await expect(confirm.getByText(warning)).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, TOAST.successTitle, TOAST.deleted(what));
}

/**
 * The table row holding `text`, clicking Next until a page shows it (lists are paged by 5). Meant
 * for a list just opened: a row added or changed on the page on screen is awaited with a plain
 * `expect(row).toBeVisible()`, since right after a mutation the old rows stay until the refetch.
 */
export async function findRow(page: Page, text: string): Promise<Locator> {
  const table = page.locator('table');
  const row = table.locator('tbody tr').filter({ hasText: text }).first();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(async () => {
    await expect(table).toHaveAttribute('aria-busy', 'false', { timeout: 1000 });
    if (await row.isVisible()) return;
    if (await next.isEnabled()) await next.click();
    throw new Error(`no row with ${JSON.stringify(text)} on this page`);
  }).toPass({ intervals: [100, 250, 500], timeout: 20_000 });
  return row;
}

// The project's axe-core (newer than the one @axe-core/playwright 4.13 bundles; its 4.14 needs Node 22).
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * No serious or critical axe-core violation (issue 10). `within`: a selector to check alone, e.g.
 * an open dialog (the page behind its overlay is dimmed on purpose). axe is injected through the
 * DevTools protocol, so the app's Content-Security-Policy (no inline scripts) does not stop it.
 */
export async function expectAccessible(page: Page, where: string, within?: string): Promise<void> {
  // Legacy mode: axe.run() in the page itself. The default runs axe.runPartial() in every frame, then
  // opens a blank page, injects axe (500 kB) again and sends it the results for axe.finishRun(): 2–3 s
  // more per check here, only to reach cross-origin frames, which the app's CSP (default-src 'self')
  // rules out. Same rules, same page, same violations.
  const builder = new AxeBuilder({ page, axeSource }).setLegacyMode();
  if (within) builder.include(within);
  const { violations } = await builder.analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  expect(serious, `${where}: serious or critical accessibility violations`).toEqual([]);
}
