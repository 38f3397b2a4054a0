// A graceful stop on SIGTERM (orchestrators, `docker stop`) and SIGINT (Ctrl-C): the process's own
// `stop` lets work in flight finish within its timeout, then the process exits 0. A second signal
// while stopping is not caught, so it ends the process at once (Ctrl-C twice).
import type { Logger } from './logging.ts';

export function stopOnSignals(log: Pick<Logger, 'info' | 'error'>, stop: () => Promise<void>): void {
  const onSignal = async (signal: NodeJS.Signals) => {
    log.info(`${signal}: stopping gracefully`);
    try {
      await stop();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'stopping failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/** Runs `cutOff` if `work` is still running after `ms` (e.g. closing connections a request holds open). */
export async function withCutOff<T>(work: Promise<T>, ms: number, cutOff: () => void): Promise<T> {
  const timer = setTimeout(cutOff, ms);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
  }
}
