// Memory of uploads (issue 16): a 150k-row .xlsx and .csv read one at a time and four at once, each
// in a fresh process, as peak RSS beside the targets (≤ 250 MB for one upload, four at once within
// 1 GB); and the time, beside reading the same file whole as uploads were read before.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeBigCsv, makeBigWorkbook } from '../test/helpers/big-upload.ts';
import { report } from './lib.ts';

const ROWS = 150_000;
const CHILD = fileURLToPath(new URL('./upload-memory-child.ts', import.meta.url));
const MB = 1024 * 1024;

interface Run {
  rows: number;
  ms: number;
  idleRss: number;
  peakRss: number;
}

function run(file: string, mode: 'stream' | 'whole', copies = 1): Run {
  const out = spawnSync(process.execPath, ['--import', 'tsx', CHILD, file, mode, String(copies)], { encoding: 'utf8' });
  const line = out.stdout.trim().split('\n').at(-1) ?? '';
  if (out.status !== 0 || !line.startsWith('{')) throw new Error(`upload child failed: ${out.stderr.slice(-2000)}`);
  return JSON.parse(line) as Run;
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

export async function benchUploads(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'upload-bench-'));
  try {
    for (const [kind, make] of [
      ['xlsx', makeBigWorkbook],
      ['csv', makeBigCsv],
    ] as const) {
      const file = path.join(dir, `stock.${kind}`);
      const data = make(ROWS);
      writeFileSync(file, data);
      const label = `uploads: ${ROWS / 1000}k-row .${kind} (${mb(data.length)})`;

      const whole = run(file, 'whole');
      const one = run(file, 'stream', 1);
      const four = run(file, 'stream', 4);
      if (one.rows !== ROWS) throw new Error(`read ${one.rows} rows, expected ${ROWS}`);
      // One upload's own memory: the process's peak above what it held before reading.
      const own = one.peakRss - one.idleRss;
      report({
        name: `${label}: memory of one upload (peak RSS above the idle process)`,
        value: `${mb(own)} (peak ${mb(one.peakRss)}, idle ${mb(one.idleRss)}); read whole with SheetJS / every row kept: ${mb(whole.peakRss - whole.idleRss)}`,
        ratio: own / (250 * MB),
        target: '≤ 1 (250 MB)',
        ok: own <= 250 * MB,
      });
      report({
        name: `${label}: peak RSS of the process reading 4 at once`,
        value: `${mb(four.peakRss)} (idle ${mb(four.idleRss)})`,
        ratio: four.peakRss / (1024 * MB),
        target: '≤ 1 (1 GB)',
        ok: four.peakRss <= 1024 * MB,
      });
      report({
        name: `${label}: read time`,
        value: `${one.ms.toFixed(0)} ms streamed on a parse thread (4 at once: ${four.ms.toFixed(0)} ms); reading the cells whole, without finding the column: ${whole.ms.toFixed(0)} ms`,
        ratio: one.ms / whole.ms,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
