// Browser suite: starts an SMTP sink and the app (`npm start`, fresh DATA_DIR, free port),
// drives Debian's chromium through the specs with node:test, prints 'N passed, N failed',
// and stops everything. Usage: npm run e2e -w frontend   (E2E_APP_ROOT overrides the repo root)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp } from './harness/app';
import { launchBrowser } from './harness/browser';
import { startSmtpSink } from './harness/smtp-sink';
import { allDone, tally } from './harness/test';
import { setWorld } from './harness/world';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = process.env.E2E_APP_ROOT ?? path.resolve(here, '../..');
const artifacts = path.resolve(here, '../test-results/e2e');
const SPECS = ['auth', 'recovery', 'items', 'admin', 'navigation', 'jobs', 'marketplaces', 'tables', 'columns'];

const started = Date.now();
const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-data-'));
const mail = await startSmtpSink();
console.log(`e2e: SMTP sink on ${mail.port}; starting the app from ${root} (DATA_DIR ${dataDir})…`);

let app: Awaited<ReturnType<typeof startApp>> | undefined;
let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
let setupError: unknown;
try {
  app = await startApp({ root, dataDir, smtpPort: mail.port });
  console.log(`e2e: app ready at ${app.baseUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  browser = await launchBrowser();
  setWorld({ baseUrl: app.baseUrl, browser, mail, artifacts });
  const only = process.argv.slice(2);
  for (const spec of only.length ? only : SPECS) await import(`./specs/${spec}.spec.ts`);
  await allDone();
} catch (err) {
  setupError = err;
  console.error('e2e: setup failed:', err);
} finally {
  await browser?.close().catch(() => {});
  await app?.stop();
  await mail.close();
}

if (tally.failed === 0 && !setupError) rmSync(dataDir, { recursive: true, force: true });
else if (app) console.error(`e2e: app log kept at ${app.logFile}`);
if (tally.failures.length) console.error(`e2e: failed:\n${tally.failures.map((f) => `  - ${f}`).join('\n')}`);
// The last line is the plain 'N passed, N failed' that CI reads; the duration goes just before it.
const summary = `e2e: browser suite took ${((Date.now() - started) / 1000).toFixed(1)} s\n${tally.passed} passed, ${tally.failed} failed`;
if (tally.failed > 0 || setupError || tally.passed === 0) process.exitCode = 1;
// node:test's reporter flushes its own trailer just before exit; ours is the last line.
process.once('exit', () => console.log(summary));
