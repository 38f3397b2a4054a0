// An app context on a benchmark's database and a superuser to act as.
import type { Database } from '../src/db/client.ts';
import { createContext } from '../src/core/create-context.ts';
import { createLogger } from '../src/core/logging.ts';
import { loadConfig } from '../src/core/config.ts';
import { UsersRepository } from '../src/users/repository.ts';

/** `url`: the PostgreSQL database's; none for PGlite. `env`: settings the benchmark changes (e.g. shorter timeouts). */
export async function benchContext(database: Database, url?: string, env: Record<string, string> = {}) {
  const config = loadConfig({
    SECRET_KEY: 'b'.repeat(40),
    ...(url ? { DATABASE_URL: url } : {}),
    DATA_DIR: '/tmp/bench-unused',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const ctx = await createContext(config, { database, log: createLogger({ level: 'silent' }) });
  const admin = await new UsersRepository(database.db).create({
    email: 'bench-admin@example.com',
    password: 'bench-password',
    is_superuser: true,
  });
  return { ctx, admin };
}
