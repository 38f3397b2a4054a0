// `npm run worker`: one more worker process on the shared PostgreSQL database. Start as many as you like;
// they split the queue between them (SKIP LOCKED) and stop gracefully on SIGTERM / SIGINT.
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createAdapters, settingsFromEnv, simulatedMarketplaces } from './marketplaces/registry.ts';
import { workerOptionsFromEnv } from './worker/options.ts';
import { startWorker } from './worker/worker.ts';

const line = (level: string) => (message: string) => console.log(`${new Date().toISOString()} ${level} ${message}`);
const log = { info: line('info'), warn: line('warn'), error: line('error') };

function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

try {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    exitWith(
      'DATABASE_URL is not set.\n' +
        'An extra worker must share the API\'s PostgreSQL database: set DATABASE_URL=postgres://user:password@host:5432/dbname.\n' +
        'Without it the API (`npm start`) uses its embedded database and already runs a worker of its own.',
    );
  }
  const settings = settingsFromEnv(process.env);
  const tuning = workerOptionsFromEnv(process.env);
  for (const id of simulatedMarketplaces(settings)) log.info(`${id}: no credentials, simulated prices from ${settings[id].baseUrl}`);
  const database = await openDatabase({ url: config.DATABASE_URL }, log);
  const worker = startWorker({ db: database.db, adapters: createAdapters(settings), settings, log, ...tuning });
  log.info(`serving ${MARKETPLACE_IDS.join(', ')} with lease ${tuning.leaseMs} ms`);

  const shutdown = async (signal: string) => {
    log.info(`${signal}: finishing running lookups (up to ${tuning.stopTimeoutMs} ms)`);
    await worker.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
} catch (err) {
  exitWith(err instanceof ConfigError ? err.message : String(err instanceof Error ? (err.stack ?? err) : err));
}
