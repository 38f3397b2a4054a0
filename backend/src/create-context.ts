// Builds the AppContext from configuration: one place that wires the parts together.
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { consoleDbLog, openDatabase, type Database, type DbLog } from './db/client.ts';
import { TokenService } from './auth/tokens.ts';
import { AttemptLimiter } from './auth/attempt-limiter.ts';
import { createMailer, type Mailer } from './email/mailer.ts';
import { UsersRepository } from './users/repository.ts';

export async function createContext(
  config: Config,
  opts: { database?: Database; mailer?: Mailer; pricesSimulated?: boolean; log?: (msg: string) => void; dbLog?: DbLog } = {},
): Promise<AppContext> {
  const log = opts.log ?? ((msg: string) => console.log(msg));
  const opened = opts.database
    ? undefined
    : await openDatabase(
        {
          url: config.DATABASE_URL,
          dataDir: config.DATABASE_URL ? undefined : `${config.DATA_DIR}/pglite`,
          poolSize: config.DATABASE_POOL_SIZE,
          exportPoolSize: config.EXPORT_MAX_CONCURRENT,
        },
        opts.dbLog ?? consoleDbLog,
      );
  const { db, exporter } = (opts.database ?? opened)!;
  return {
    config,
    db,
    exporter,
    closeDatabase: async () => opened?.close(),
    tokens: new TokenService(config.SECRET_KEY, config.ACCESS_TOKEN_EXPIRE_MINUTES, config.EMAIL_RESET_TOKEN_EXPIRE_HOURS),
    limiter: new AttemptLimiter(db, opts.dbLog ?? consoleDbLog),
    mailer: opts.mailer ?? createMailer(config, log),
    users: new UsersRepository(db),
    pricesSimulated: opts.pricesSimulated ?? true,
  };
}
