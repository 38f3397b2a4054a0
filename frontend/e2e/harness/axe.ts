// The automated accessibility check of issue 10: axe-core run in the page, failing on any serious
// or critical violation. Evaluated through the DevTools protocol, so it needs no inline <script>
// (the app's Content-Security-Policy forbids those).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** `within`: a selector to check alone, e.g. an open dialog (the page behind its overlay is dimmed on purpose). */
export async function expectAccessible(page: Page, where: string, within?: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations: Violation[] = await page.evaluate(async (selector) => {
    // axe-core is injected into the page above; the browser's window type does not know it.
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run((selector ? document.querySelector(selector) : document) as Document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  }, within);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${where}: serious or critical accessibility violations`);
}
