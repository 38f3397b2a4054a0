// Builds the AppContext from configuration: one place that wires the core services together.
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type Database } from '../db/client.ts';
import type { Logger } from './logging.ts';
import { TokenService } from './security/tokens.ts';
import { createMailer, type Mailer } from './mailer.ts';

export async function createContext(
  config: Config,
  opts: { log: Logger; db?: Database; mailer?: Mailer; pricesSimulated?: boolean },
): Promise<AppContext> {
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
    mailer: opts.mailer ?? createMailer(config, (msg) => opts.log.info(msg)),
    pricesSimulated: opts.pricesSimulated ?? true,
  };
}
