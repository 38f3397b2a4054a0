// `e2e(name, fn)`: a node:test test with a fresh browser context (own localStorage), a
// screenshot on failure, and a tally for run.ts's summary line.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { world } from './world';

export const tally = { passed: 0, failed: 0, failures: [] as string[] };
const pending: Promise<void>[] = [];

export interface E2EContext {
  page: Page;
  context: BrowserContext;
  baseUrl: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`test timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function e2e(name: string, fn: (t: E2EContext) => Promise<void>, { timeoutMs = 60_000 } = {}): void {
  pending.push(
    // Our own timeout (below) fails the test with a screenshot; node:test's is only a backstop.
    test(name, { timeout: timeoutMs + 15_000 }, async () => {
      const w = world();
      const context = await w.browser.newContext({ baseURL: w.baseUrl, viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      try {
        await withTimeout(fn({ page, context, baseUrl: w.baseUrl }), timeoutMs);
        tally.passed++;
      } catch (err) {
        tally.failed++;
        tally.failures.push(name);
        mkdirSync(w.artifacts, { recursive: true });
        const shot = path.join(w.artifacts, `${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
        await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
        console.error(`  screenshot: ${shot}  (url: ${page.url()})`);
        throw err;
      } finally {
        await context.close();
      }
    }),
  );
}

/** Resolves when every registered test has finished (they run one after another). */
export function allDone(): Promise<unknown> {
  return Promise.allSettled(pending);
}
