// Memory of uploads (issue 16): a 150k-row .xlsx and .csv read one at a time and four at once, each
// in a fresh process, as its own peak RSS (VmHWM) beside the targets (≤ 250 MB for one upload, four
// at once within 1 GB); and the time, beside reading the same file whole as uploads were read before.
// Then the same files uploaded through HTTP to the API in its own process (src/main.ts on
// PostgreSQL, as `npm start` runs it), one and four at once, with that process's RSS sampled while
// it receives, parses and stores them: the figure a deployment sees.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/client.ts';
import { makeBigCsv, makeBigWorkbook } from '../test/helpers/big-upload.ts';
import { benchContext, staffTokens } from './context.ts';
import { benchPostgres, peakRssDuring, report, startSourceProcess } from './lib.ts';

const ROWS = 150_000;
const CHILD = fileURLToPath(new URL('./upload-memory-child.ts', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** Shared with the API process, so the tokens the bench signs are the API's. */
const SECRET_KEY = 'u'.repeat(40);
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

const KINDS = [
  ['xlsx', makeBigWorkbook],
  ['csv', makeBigCsv],
] as const;

const label = (kind: string, data: Buffer) => `uploads: ${ROWS / 1000}k-row .${kind} (${mb(data.length)})`;

export async function benchUploads(): Promise<void> {
  const files = KINDS.map(([kind, make]) => ({ kind, data: make(ROWS) }));
  await benchParseProcesses(files);
  await benchApiUploads(files);
}

/** Each file read in a fresh process (upload-memory-child.ts): its own peak and time. */
async function benchParseProcesses(files: { kind: string; data: Buffer }[]): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'upload-bench-'));
  try {
    for (const { kind, data } of files) {
      const file = path.join(dir, `stock.${kind}`);
      writeFileSync(file, data);
      const name = label(kind, data);

      const whole = run(file, 'whole');
      const one = run(file, 'stream', 1);
      const four = run(file, 'stream', 4);
      if (one.rows !== ROWS) throw new Error(`read ${one.rows} rows, expected ${ROWS}`);
      // One upload's own memory: the process's peak above what it held before reading.
      const own = one.peakRss - one.idleRss;
      report({
        name: `${name}: memory of one upload (peak RSS above the idle process)`,
        value: `${mb(own)} (peak ${mb(one.peakRss)}, idle ${mb(one.idleRss)}); read whole with SheetJS / every row kept: ${mb(whole.peakRss - whole.idleRss)}`,
        ratio: own / (250 * MB),
        target: '≤ 1 (250 MB)',
        ok: own <= 250 * MB,
      });
      report({
        name: `${name}: peak RSS of the process reading 4 at once`,
        value: `${mb(four.peakRss)} (idle ${mb(four.idleRss)})`,
        ratio: four.peakRss / (1024 * MB),
        target: '≤ 1 (1 GB)',
        ok: four.peakRss <= 1024 * MB,
      });
      report({
        name: `${name}: read time`,
        value: `${one.ms.toFixed(0)} ms streamed on a parse thread (4 at once: ${four.ms.toFixed(0)} ms); reading the cells whole, without finding the column: ${whole.ms.toFixed(0)} ms`,
        ratio: one.ms / whole.ms,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** POSTs `data` as a job upload for one marketplace; throws unless the job was created. */
async function upload(base: string, token: string, kind: string, data: Buffer): Promise<void> {
  const form = new FormData();
  form.set('config', JSON.stringify({ name: `bench ${kind}`, abe_books: true }));
  form.set('file', new Blob([new Uint8Array(data)]), `stock.${kind}`);
  const res = await fetch(`${base}/api/v1/jobs/upload-file`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
}

/**
 * The API process's resident memory while it takes real uploads through HTTP: one, then four at
 * once (four users: each user may have only UPLOAD_MAX_PER_USER in progress).
 */
async function benchApiUploads(files: { kind: string; data: Buffer }[]): Promise<void> {
  const pgDb = await benchPostgres();
  const database = await openDatabase({ url: pgDb.url, poolSize: 2 });
  let stopApi: (() => Promise<void>) | undefined;
  try {
    const { ctx } = await benchContext(database, pgDb.url, { SECRET_KEY });
    const tokens = await staffTokens(ctx, 4);
    const api = await startSourceProcess(
      MAIN,
      { DATABASE_URL: pgDb.url, SECRET_KEY, RUN_WORKER: 'false', SERVE_FRONTEND: 'false', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' },
      /running at http:\/\/localhost:(\d+)/,
    );
    stopApi = api.stop;
    const base = `http://127.0.0.1:${api.ready[1]}`;
    for (const { kind, data } of files) {
      const name = label(kind, data);
      const one = await peakRssDuring(() => upload(base, tokens[0] ?? '', kind, data), api.pid);
      report({
        name: `${name}: API process RSS during one upload through HTTP`,
        value: `${mb(one.peak - one.base)} above its ${mb(one.base)} before (peak ${mb(one.peak)})`,
        ratio: (one.peak - one.base) / (250 * MB),
        target: '≤ 1 (250 MB)',
        ok: one.peak - one.base <= 250 * MB,
      });
      const four = await peakRssDuring(() => Promise.all(tokens.map((token) => upload(base, token, kind, data))), api.pid);
      report({
        name: `${name}: API process RSS during four uploads at once through HTTP`,
        value: `peak ${mb(four.peak)} (${mb(four.base)} before)`,
        ratio: four.peak / (1024 * MB),
        target: '≤ 1 (1 GB)',
        ok: four.peak <= 1024 * MB,
      });
    }
  } finally {
    await stopApi?.();
    await database.close();
    await pgDb.cleanup();
  }
}
