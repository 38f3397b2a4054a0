// `npm run bench`: every benchmark, one line per figure with its ratio and target.
// Exits non-zero when a benchmark cannot run (it does not fail on a missed target: the figures are the report).
import { benchAbuse } from './abuse.bench.ts';
import { benchAudit } from './audit.bench.ts';
import { benchBigPaste } from './big-paste.bench.ts';
import { benchBundle } from './bundle.bench.ts';
import { benchComparison } from './comparison.bench.ts';
import { benchDecisions } from './decisions.bench.ts';
import { benchExports } from './exports.bench.ts';
import { benchIngest } from './ingest.bench.ts';
import { benchJudge } from './judge.bench.ts';
import { benchLookups } from './lookups.bench.ts';
import { benchOffline } from './offline.bench.ts';
import { benchAmazon, benchWorker } from './worker.bench.ts';
import { benchReuse } from './reuse.bench.ts';
import { benchScale } from './scale.bench.ts';
import { benchScan } from './scan.bench.ts';
import { benchUploads } from './uploads.bench.ts';
import { benchWatches } from './watches.bench.ts';
import { allFigures } from './lib.ts';

const only = process.argv[2];
const benches: [string, () => Promise<void>][] = [
  ['ingest', benchIngest],
  ['uploads', benchUploads],
  ['lookups', benchLookups],
  ['worker', benchWorker],
  ['amazon', benchAmazon],
  ['comparison', benchComparison],
  ['reuse', benchReuse],
  ['decisions', benchDecisions],
  ['judge', benchJudge],
  ['abuse', benchAbuse],
  ['audit', benchAudit],
  ['big-paste', benchBigPaste],
  ['scale', benchScale],
  ['scan', benchScan],
  ['exports', benchExports],
  ['bundle', benchBundle],
  ['offline', benchOffline],
  ['watches', benchWatches],
];

try {
  for (const [name, run] of benches) {
    if (only && only !== name) continue;
    console.log(`\n# ${name}`);
    await run();
  }
  const missed = allFigures().filter((f) => f.ok === false);
  console.log(`\n${allFigures().length} figures, ${missed.length} targets missed`);
  process.exit(0);
} catch (err) {
  console.error('benchmark could not run:', err);
  process.exit(1);
}
