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

/** What closeApp needs of a Fastify app. */
interface ClosableApp {
  close(): PromiseLike<unknown>;
  server: { closeIdleConnections(): void };
}

/**
 * Closes an app's server: new connections are refused at once, requests in flight are answered, and
 * each keep-alive connection is closed as soon as it falls idle. Node closes only the connections idle
 * when close() is called; one answering a request then held the stop for its keep-alive timeout (5 s
 * of a 5.1 s stop in graceful-stop.int.test.ts).
 */
export async function closeApp(app: ClosableApp, everyMs = 50): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), everyMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
