// Vitest reporter (beside the default one): after a run of more than one file, the slowest test files,
// slowest first, each with its time to import, set up and run, so the next slow suite is easy to find.
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 15;

export default class SlowestTestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length < 2) return;
    const rows = testModules.map((m) => {
      const d = m.diagnostic();
      return { ms: d.collectDuration + d.setupDuration + d.duration, file: `${m.project.name}  ${m.relativeModuleId}` };
    });
    rows.sort((a, b) => b.ms - a.ms);
    const lines = rows.slice(0, SHOWN).map((r) => `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
    console.log(`\nSlowest test files (import + setup + tests; ${rows.length} files):\n${lines.join('\n')}`);
  }
}
