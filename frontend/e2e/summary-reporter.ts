// Ends the run with the plain 'N passed, N failed' line CI reads (the list reporter's own summary
// has no 'failed' count when nothing failed). A run that failed outside any test (the app did not
// start, an interrupt) counts as one failure, so that line never reads as a clean run.
// Before it: the time each spec file took (its tests' durations, slowest first) and the app's start.
// A run in parts (scripts/test.sh) names a totals folder (E2E_TOTALS_DIR): each part writes its counts
// to a file of its own there (two parts run at once), and its last line counts every part so far.
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';

export default class SummaryReporter implements Reporter {
  private suite: Suite | undefined;
  private readonly bySpec = new Map<string, number>();

  onBegin(_config: unknown, suite: Suite): void {
    this.suite = suite;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const spec = path.basename(test.location.file);
    this.bySpec.set(spec, (this.bySpec.get(spec) ?? 0) + result.duration);
  }

  onEnd(result: FullResult): void {
    const tests = this.suite?.allTests() ?? [];
    const passed = tests.filter((t) => t.outcome() === 'expected' || t.outcome() === 'flaky').length;
    let failed = tests.filter((t) => t.outcome() === 'unexpected').length;
    if (failed === 0 && result.status !== 'passed') failed = 1;
    const specs = [...this.bySpec].sort((a, b) => b[1] - a[1]);
    const inTests = specs.reduce((sum, [, ms]) => sum + ms, 0);
    if (specs.length > 1) {
      console.log('e2e: time per spec file, slowest first:');
      for (const [spec, ms] of specs) console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${spec}`);
    }
    console.log(
      `e2e: browser suite took ${(result.duration / 1000).toFixed(1)} s (${(inTests / 1000).toFixed(1)} s in tests; the rest: building and starting the app, starting browsers)`,
    );
    const totals = addToTotals(process.env.E2E_TOTALS_DIR, { passed, failed });
    console.log(`${totals.passed} passed, ${totals.failed} failed`);
  }

  printsToStdio(): boolean {
    return true;
  }
}

type Counts = { passed: number; failed: number };

/** This part's counts added to the run's (one file per part in `dir`, when set): what the run's last line reports. */
function addToTotals(dir: string | undefined, counts: Counts): Counts {
  if (!dir) return counts;
  mkdirSync(dir, { recursive: true });
  // Written aside, then renamed: a part reading the folder never meets a half-written file.
  const mine = path.join(dir, `${process.pid}.json`);
  writeFileSync(`${mine}.part`, JSON.stringify(counts));
  renameSync(`${mine}.part`, mine);
  const total: Counts = { passed: 0, failed: 0 };
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const part: Counts = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    total.passed += part.passed;
    total.failed += part.failed;
  }
  return total;
}
