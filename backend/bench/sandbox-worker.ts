// A worker over every marketplace against a sandbox, run until nothing is queued: the worker and reuse benches.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../src/db/client.ts';
import { JobEvents } from '../src/core/job-events.ts';
import { createLogger } from '../src/core/logging.ts';
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { marketplaceEnvNames, operationRateEnvNames, settingsFromEnv } from '../src/marketplaces/env.ts';
import { createAdapters } from '../src/marketplaces/registry.ts';
import { startWorker } from '../src/worker/worker.ts';
import { timed } from './lib.ts';

/** Runs one worker (this concurrency per marketplace, no rate limit to speak of) until idle; its time in ms. */
export async function runWorkerToIdle(db: Db, sandboxUrl: string, concurrency: number): Promise<number> {
  return runWorkerUntil(db, sandboxUrl, { concurrency, ratePerSecond: 10_000 }, 'idle');
}

/** Runs one worker until `done` says so (checked every 100 ms) or the queue is idle; its time in ms. */
export async function runWorkerUntil(
  db: Db,
  sandboxUrl: string,
  limits: { concurrency: number; ratePerSecond: number; env?: NodeJS.ProcessEnv },
  done: 'idle' | (() => Promise<boolean>),
): Promise<number> {
  const env: NodeJS.ProcessEnv = {};
  for (const id of MARKETPLACE_IDS) {
    const names = marketplaceEnvNames(id);
    env[names.concurrency] = String(limits.concurrency);
    // A marketplace paced per operation (Amazon) gets the rate on each of them.
    const ops = Object.values(operationRateEnvNames(id));
    for (const name of ops.length ? ops : [names.ratePerSecond]) env[name] = String(limits.ratePerSecond);
  }
  Object.assign(env, limits.env);
  const settings = settingsFromEnv(env, { sandboxUrl });
  const { ms } = await timed(async () => {
    const log = createLogger({ level: 'warn', name: 'worker' });
    // As `npm run worker` runs: progress is announced for live updates (one NOTIFY per interval).
    const jobEvents = new JobEvents(db, 250, log);
    const worker = startWorker({ db, adapters: createAdapters(settings), settings, log, jobEvents, pollIntervalMs: 200 });
    if (done === 'idle') await worker.idle();
    else while (!(await done())) await sleep(100);
    await worker.stop();
    await jobEvents.close();
  });
  return ms;
}
