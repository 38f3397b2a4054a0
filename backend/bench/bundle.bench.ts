// The frontend's weight on the wire (issue 16): builds frontend/ with Vite, walks its manifest and
// prints gzip sizes (kB of 1,000 bytes, as Vite prints them): the first load (entry, its static
// imports, their CSS); the signed-in shell (the _layout route) it then adds; and what opening a job's
// page adds to those two, beside the targets. Then checks the charting library (recharts) is in no
// chunk those load: the charts are fetched only when shown. The scan page (issue 31) the same way: its
// chunk beyond the shell, and the barcode reader with its .wasm that only starting the camera fetches.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { initialFiles, type Manifest, onDemandFiles, routeFiles } from './bundle-manifest.ts';
import { report } from './lib.ts';

const FRONTEND = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../frontend');
const DIST = path.join(FRONTEND, 'dist');
const LAYOUT_ROUTE = 'src/routes/_layout.tsx';
const JOB_ROUTE = 'src/routes/_layout/jobs_.$id.tsx';
const SCAN_ROUTE = 'src/routes/_layout/scan.tsx';
const READER_MODULE = 'src/components/scan/zxing-reader.ts';
const INITIAL_TARGET_KB = 150;
const SCAN_PAGE_TARGET_KB = 40;
const JOB_PAGE_TARGET_KB = 60;
// A class name recharts puts on every chart it draws; it survives minification.
const RECHARTS_MARK = 'recharts-wrapper';

const read = (file: string) => readFileSync(path.join(DIST, file));
const gzipKb = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + gzipSync(read(f)).length, 0) / 1000;
const rawKb = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + read(f).length, 0) / 1000;

function build(): void {
  try {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: FRONTEND, stdio: 'pipe' });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`the frontend build failed:\n${stderr}`);
  }
}

function sized(name: string, files: ReadonlySet<string>, targetKb?: number): void {
  const value = gzipKb(files);
  report({
    name: `${name}, gzip (${files.size} files)`,
    value: `${value.toFixed(1)} kB`,
    ...(targetKb === undefined ? {} : { ratio: value / targetKb, target: `≤ ${targetKb} kB`, ok: value <= targetKb }),
  });
}

export async function benchBundle(): Promise<void> {
  build();
  const manifest = JSON.parse(read('.vite/manifest.json').toString('utf8')) as Manifest;
  const initial = initialFiles(manifest);
  const layout = routeFiles(manifest, LAYOUT_ROUTE, initial);
  const jobPage = routeFiles(manifest, JOB_ROUTE, new Set([...initial, ...layout]));

  sized('initial JS+CSS', initial, INITIAL_TARGET_KB);
  sized('signed-in shell (_layout) beyond the initial load', layout);
  sized('job page chunk and its imports beyond the initial load and the shell', jobPage, JOB_PAGE_TARGET_KB);
  sized('job page opened cold: beyond the initial load only', routeFiles(manifest, JOB_ROUTE, initial));
  const shell = new Set([...initial, ...layout]);
  const scanPage = routeFiles(manifest, SCAN_ROUTE, shell);
  sized('scan page chunk and its imports beyond the initial load and the shell', scanPage, SCAN_PAGE_TARGET_KB);
  sized('scan page opened cold: beyond the initial load only', routeFiles(manifest, SCAN_ROUTE, initial));
  const reader = onDemandFiles(manifest, READER_MODULE, new Set([...shell, ...scanPage]));
  sized('barcode reader fetched when the camera starts (polyfill JS + .wasm)', reader);
  // The API serves files uncompressed: this is what crosses the wire, once (the names are content-hashed, cached for good).
  report({ name: 'the same as served (uncompressed)', value: `${rawKb(reader).toFixed(1)} kB` });
  const eagerReader = [...reader].filter((f) => initial.has(f) || layout.has(f) || scanPage.has(f));
  report({
    name: 'barcode reader files loaded with a page',
    value: eagerReader.length === 0 ? 'none' : eagerReader.join(', '),
    target: 'none (fetched when the camera starts)',
    ok: eagerReader.length === 0 && [...reader].some((f) => f.endsWith('.wasm')),
  });
  const eagerWithCharts = [...initial, ...layout, ...jobPage].filter((f) => f.endsWith('.js') && read(f).includes(RECHARTS_MARK));
  report({
    name: 'chunks with recharts among those',
    value: eagerWithCharts.length === 0 ? 'none' : eagerWithCharts.join(', '),
    target: 'none (charts load when shown)',
    ok: eagerWithCharts.length === 0,
  });
}
