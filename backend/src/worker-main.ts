// `npm run worker`: one more worker process on the shared PostgreSQL database. Start as many as you like;
// they split the queue between them (SKIP LOCKED) and stop gracefully on SIGTERM / SIGINT.
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { ConfigError, coreConfig } from './core/config.ts';
import { createMailer } from './core/mailer.ts';
import { createLogger } from './core/logging.ts';
import { stopOnSignals } from './core/shutdown.ts';
import { startMetricsServer } from './metrics/worker-server.ts';
import { openDatabase } from './db/client.ts';
import { JobEvents } from './core/job-events.ts';
import { loadEnvironment } from './environment.ts';
import { marketplaceSettings } from './marketplaces/env.ts';
import { createAdapters, simulatedMarketplaces } from './marketplaces/registry.ts';
import { bookDetailsSettings } from './book-details/options.ts';
import { keepaSettings } from './keepa/options.ts';
import { startWorker } from './worker/worker.ts';

async function main(): Promise<void> {
  // The worker's own rules: DATABASE_URL is required, and keyless marketplaces need SANDBOX_URL.
  const env = loadEnvironment('worker');
  const log = createLogger({ level: env.server.LOG_LEVEL, name: 'worker' });
  const settings = marketplaceSettings(env.marketplaces, env.sandbox.url);
  const { tuning, metricsPort } = env.worker;
  const stopTimeoutMs = env.server.SHUTDOWN_TIMEOUT_MS;
  for (const id of simulatedMarketplaces(settings)) log.info(`${id}: no credentials, simulated prices from ${settings[id].baseUrl}`);
  const database = await openDatabase({ url: env.database.DATABASE_URL }, log);
  // Progress this process writes reaches every API process's live streams through NOTIFY.
  const jobEvents = new JobEvents(database.db, env.live.LIVE_UPDATE_INTERVAL_MS, log);
  const bookDetails = bookDetailsSettings(
    env.bookDetails,
    env.sandbox.url,
    simulatedMarketplaces(settings).length === MARKETPLACE_IDS.length,
  );
  const keepa = keepaSettings(env.keepa, env.sandbox.url, simulatedMarketplaces(settings).length === MARKETPLACE_IDS.length);
  // Watch digests carry links the API checks with SECRET_KEY: only a worker that shares it sends them
  // (without one, the API's own worker does, with the key it generated).
  const core = env.auth.SECRET_KEY ? coreConfig(env) : undefined;
  const digest = core && {
    mailer: createMailer(core, (msg) => log.info(msg)),
    secretKey: core.SECRET_KEY,
    linkBase: core.FRONTEND_HOST,
    projectName: core.PROJECT_NAME,
  };
  const worker = startWorker({
    db: database.db,
    adapters: createAdapters(settings),
    settings,
    log,
    jobEvents,
    bookDetails,
    ...(keepa ? { keepa } : {}),
    ...tuning,
    reuseWindowMs: env.answers.LOOKUP_REUSE_WINDOW,
    listen: database.listen,
    stopTimeoutMs,
    ...(digest ? { digest } : {}),
  });
  const metrics =
    metricsPort === undefined
      ? undefined
      : await startMetricsServer({ host: env.server.HOST, port: metricsPort, token: env.metrics.METRICS_TOKEN, poolUse: database.poolUse });
  if (metrics) log.info(`metrics at http://${env.server.HOST}:${metrics.port}/metrics`);
  log.info(`worker process serving ${MARKETPLACE_IDS.join(', ')} with lease ${tuning.leaseMs} ms`);

  stopOnSignals(log, async () => {
    log.info(`finishing running lookups (up to ${stopTimeoutMs} ms)`);
    await worker.stop();
    await metrics?.close();
    await jobEvents.close();
    await database.close();
  });
}

main().catch((err: unknown) => {
  // A configuration problem is the reader's to fix: its message alone says what; anything else is ours.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
