// Builds the AppContext from configuration: one place that wires the core services together.
import { WritesInProgress } from './writes-in-progress.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { ExportSlots } from '../db/export-slots.ts';
import { openDatabase, type Database } from '../db/client.ts';
import type { DbLog } from '../db/log.ts';
import type { Logger } from './logging.ts';
import { TokenService } from './security/tokens.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { JobEvents } from './job-events.ts';
import { ensurePrivateDir } from './private-dir.ts';

export async function createContext(
  config: Config,
  opts: {
    log: Logger;
    database?: Database;
    mailer?: Mailer;
    pricesSimulated?: boolean;
    dailyCallBudgets?: Readonly<Record<string, number>>;
  },
): Promise<AppContext> {
  const dbLog: DbLog = opts.log;
  // The embedded database's files live under DATA_DIR: the service's user's alone.
  if (!config.DATABASE_URL && !opts.database) ensurePrivateDir(config.DATA_DIR);
  const database =
    opts.database ??
    (await openDatabase(
      {
        url: config.DATABASE_URL,
        dataDir: config.DATABASE_URL ? undefined : `${config.DATA_DIR}/pglite`,
        // The embedded engine on its own thread: requests and health checks never wait on a statement.
        thread: true,
        poolSize: config.DATABASE_POOL_SIZE,
        exportPoolSize: config.EXPORT_MAX_CONCURRENT,
      },
      dbLog,
    ));
  // A database handed in is its owner's to close; one opened here is closed with the context.
  const ownsDatabase = !opts.database;
  const { db, exporter, bulk, listen } = database;
  const jobEvents = new JobEvents(db, config.LIVE_UPDATE_INTERVAL_MS, opts.log);
  return {
    config,
    db,
    poolUse: () => database.poolUse(),
    exporter,
    bulk,
    exports: new ExportSlots({
      maxConcurrent: config.EXPORT_MAX_CONCURRENT,
      maxPerUser: config.EXPORT_MAX_PER_USER,
      windowMs: config.EXPORT_STALL_TIMEOUT_MS,
      minBytesPerSecond: config.EXPORT_MIN_BYTES_PER_SECOND,
    }),
    listen,
    jobEvents,
    closeDatabase: async () => {
      await jobEvents.close();
      if (ownsDatabase) await database.close();
    },
    tokens: new TokenService(config.SECRET_KEY, config.ACCESS_TOKEN_EXPIRE_MINUTES, config.EMAIL_RESET_TOKEN_EXPIRE_HOURS),
    mailer: opts.mailer ?? createMailer(config, (msg) => opts.log.info(msg)),
    pricesSimulated: opts.pricesSimulated ?? true,
    embedded: database.embedded ?? false,
    ...(database.sessionActivity ? { sessionActivity: database.sessionActivity } : {}),
    writes: new WritesInProgress(),
    ...(opts.dailyCallBudgets ? { dailyCallBudgets: opts.dailyCallBudgets } : {}),
  };
}
