// One process that reads an upload file and prints what it cost, for uploads.bench.ts: peak RSS
// of the whole process beside its RSS before reading, and the time. The peak is this process's own
// high-water mark (VmHWM): process.resourceUsage().maxRSS on Linux carries the parent's across fork
// and exec, so it reported the bench process (1.2-1.3 GB whatever was read, after the other groups).
//   stream N: N copies at once, each on its own parse thread under the default heap cap, as the API does.
//   whole: the file read whole in place, the way uploads were read before (SheetJS, or every CSV row kept).
import { readFileSync } from 'node:fs';
import { ownPeakRss } from './proc-memory.ts';
import { CORE_SECTIONS } from '../src/core/config.ts';
import { parseCsv, sniffDelimiter } from '../src/uploads/csv.ts';
import { parseUploadOffThread, uploadLimits } from '../src/uploads/index.ts';
import { decodeText } from '../src/uploads/text-decode.ts';

const limits = uploadLimits(CORE_SECTIONS.uploads.parse({}));

const [file = '', mode = 'stream', copies = '1'] = process.argv.slice(2);
const data = readFileSync(file);
const name = file.split('/').pop() ?? file;
const idleRss = process.memoryUsage.rss();
const started = performance.now();
let rows = 0;
if (mode === 'whole') {
  if (name.endsWith('.csv')) {
    const text = decodeText(data);
    rows = parseCsv(text, sniffDelimiter(text)).length;
  } else {
    const XLSX = await import('@e965/xlsx');
    const wb = XLSX.read(data, {
      type: 'buffer',
      dense: true,
      cellDates: true,
      cellFormula: false,
      cellHTML: false,
      cellNF: false,
      cellStyles: false,
      cellText: false,
    });
    rows = (wb.Sheets[wb.SheetNames[0] ?? '']?.['!data'] ?? []).length;
  }
} else {
  const n = Number(copies);
  const results = await Promise.all(Array.from({ length: n }, () => parseUploadOffThread(data, name, limits, limits.maxParseMemoryMb)));
  rows = results[0]?.report.rows_read ?? 0;
}
const ms = performance.now() - started;
console.log(JSON.stringify({ rows, ms, idleRss, peakRss: ownPeakRss() }));
