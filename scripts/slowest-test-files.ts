// Vitest reporter (beside the default one): after a run of more than one file, the slowest test files,
// slowest first, each with its time to import, set up and run, and each project's files and total, so
// the next slow suite is easy to find. Every file's time is also written to
// test-results/vitest-file-durations.json, to compare two runs file by file (the machine's load
// changes the wall clock; a file's share of the run changes less).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 15;
const OUT = path.resolve(import.meta.dirname, '../test-results/vitest-file-durations.json');

const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)} s`;

export default class SlowestTestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length < 2) return;
    const rows = testModules.map((m) => {
      const d = m.diagnostic();
      return { project: m.project.name, file: m.relativeModuleId, ms: Math.round(d.collectDuration + d.setupDuration + d.duration) };
    });
    rows.sort((a, b) => b.ms - a.ms);
    const projects = new Map<string, { files: number; ms: number }>();
    for (const r of rows) {
      const p = projects.get(r.project) ?? { files: 0, ms: 0 };
      projects.set(r.project, { files: p.files + 1, ms: p.ms + r.ms });
    }
    const lines = rows.slice(0, SHOWN).map((r) => `${seconds(r.ms)}  ${r.project}  ${r.file}`);
    const totals = [...projects].map(([name, p]) => `${seconds(p.ms)}  ${name} (${p.files} files)`);
    console.log(`\nSlowest test files (import + setup + tests; ${rows.length} files):\n${lines.join('\n')}`);
    console.log(`Per project (files' times added up):\n${totals.join('\n')}\nEvery file: ${path.relative(process.cwd(), OUT)}`);
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, `${JSON.stringify(rows, null, 1)}\n`);
  }
}
