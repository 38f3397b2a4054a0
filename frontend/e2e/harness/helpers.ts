// Shared steps for the specs: seeding through the API (fast) and acting through the UI
// (what is under test), with the spec's own texts from src/lib/messages.ts.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { world } from './world';

let counter = 0;
/** A unique, valid address per call (tests share one database). */
export function uniqueEmail(tag: string): string {
  counter++;
  return `${tag}-${Date.now().toString(36)}-${counter}@example.com`;
}

async function api<T>(method: string, url: string, init: { token?: string; json?: unknown; form?: Record<string, string> } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  if (init.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(`${world().baseUrl}${url}`, { method, headers, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export const seed = {
  signUp: (email: string, password: string, full_name: string) => api('POST', '/api/v1/users/signup', { json: { email, password, full_name } }),
  token: async (email: string, password: string) =>
    (await api<{ access_token: string }>('POST', '/api/v1/login/access-token', { form: { username: email, password } })).access_token,
  createItem: (token: string, title: string, description?: string) => api('POST', '/api/v1/items/', { token, json: { title, description } }),
  /** A fresh ordinary user, signed up through the API; returns its credentials and token. */
  async user(tag: string, fullName = 'Test User') {
    const email = uniqueEmail(tag);
    const password = 'password123';
    await seed.signUp(email, password, fullName);
    return { email, password, fullName, token: await seed.token(email, password) };
  },
};

/** Puts a token in localStorage the way the login page does, then opens `path`. */
export async function openLoggedIn(page: Page, token: string, path = '/'): Promise<void> {
  await page.goto('/login');
  await page.evaluate((t) => localStorage.setItem('access_token', t), token);
  await page.goto(path);
}

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
  await toast(page, title, message).waitFor();
}

export async function expectPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
}

/** Polls until `check` holds (for states Playwright has no waiter for, like disabled). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for: ${what}`);
}

export async function expectDisabled(locator: Locator, disabled = true): Promise<void> {
  await eventually(async () => (await locator.isDisabled()) === disabled, `${locator} to be ${disabled ? 'disabled' : 'enabled'}`);
}

/**
 * The table row holding `text`, clicking Next until it shows up (lists are paged by 5). Each page is
 * given a moment: right after a mutation the list refetches, and the old rows are still on screen.
 */
export async function findRow(page: Page, text: string): Promise<Locator> {
  const table = page.locator('table');
  const next = page.getByRole('button', { name: 'Next' });
  for (let i = 0; i < 50; i++) {
    await table.locator('tbody tr').first().waitFor();
    await eventually(async () => (await table.getAttribute('aria-busy')) === 'false', 'table to finish loading');
    const row = table.locator('tbody tr').filter({ hasText: text });
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      if ((await row.count()) > 0) return row.first();
      await new Promise((r) => setTimeout(r, 100));
    }
    if (await next.isDisabled()) break;
    await next.click();
  }
  assert.fail(`no table row contains ${JSON.stringify(text)}`);
}

/** Opens a row's Actions menu and picks an entry, e.g. 'Edit Item'. */
export async function rowAction(page: Page, row: Locator, entry: string): Promise<void> {
  await row.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

/** Blurs a field so onBlur validation runs. */
export async function blur(locator: Locator): Promise<void> {
  await locator.focus();
  await locator.blur();
}
