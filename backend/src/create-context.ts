// Builds the AppContext from configuration: one place that wires the parts together.
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type Database } from './db/client.ts';
import { TokenService } from './auth/tokens.ts';
import { AttemptLimiter } from './auth/attempt-limiter.ts';
import { createMailer, type Mailer } from './email/mailer.ts';
import { UsersRepository } from './users/repository.ts';

export async function createContext(
  config: Config,
  opts: { db?: Database; mailer?: Mailer; pricesSimulated?: boolean; log?: (msg: string) => void } = {},
): Promise<AppContext> {
  const log = opts.log ?? ((msg: string) => console.log(msg));
  const db = opts.db ?? (await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.DATABASE_URL ? undefined : `${config.DATA_DIR}/pglite`,
      poolSize: config.DATABASE_POOL_SIZE,
      exportPoolSize: config.EXPORT_MAX_CONCURRENT,
    }));
  return {
    config,
    db,
    tokens: new TokenService(config.SECRET_KEY, config.ACCESS_TOKEN_EXPIRE_MINUTES, config.EMAIL_RESET_TOKEN_EXPIRE_HOURS),
    limiter: new AttemptLimiter(db),
    mailer: opts.mailer ?? createMailer(config, log),
    users: new UsersRepository(db.orm),
    pricesSimulated: opts.pricesSimulated ?? true,
  };
}
