// A worker over every marketplace against a sandbox, run until nothing is queued: the worker and reuse benches.
import type { Db } from '../src/db/client.ts';
import { JobEvents } from '../src/core/job-events.ts';
import { createLogger } from '../src/core/logging.ts';
import { settingsFromEnv } from '../src/marketplaces/env.ts';
import { createAdapters } from '../src/marketplaces/registry.ts';
import { startWorker } from '../src/worker/worker.ts';
import { timed } from './lib.ts';

/** Runs one worker (this concurrency per marketplace, no rate limit to speak of) until idle; its time in ms. */
export async function runWorkerToIdle(db: Db, sandboxUrl: string, concurrency: number): Promise<number> {
  const env: NodeJS.ProcessEnv = {};
  for (const prefix of ['ABEBOOKS', 'BIBLIO', 'ALIBRIS', 'PALLETIQ']) {
    env[`${prefix}_CONCURRENCY`] = String(concurrency);
    env[`${prefix}_RATE_PER_SECOND`] = '10000';
  }
  const settings = settingsFromEnv(env, { sandboxUrl });
  const { ms } = await timed(async () => {
    const log = createLogger({ level: 'warn', name: 'worker' });
    // As `npm run worker` runs: progress is announced for live updates (one NOTIFY per interval).
    const jobEvents = new JobEvents(db, 250, log);
    const worker = startWorker({ db, adapters: createAdapters(settings), settings, log, jobEvents, pollIntervalMs: 200 });
    await worker.idle();
    await worker.stop();
    await jobEvents.close();
  });
  return ms;
}
