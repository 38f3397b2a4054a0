// An app context on a benchmark's database and a superuser to act as.
import type { AppContext } from '../src/core/context.ts';
import type { Database } from '../src/db/client.ts';
import { createContext } from '../src/core/create-context.ts';
import { createLogger } from '../src/core/logging.ts';
import { loadConfig } from '../src/core/config.ts';
import { createUser } from '../src/users/repository.ts';

/**
 * Tokens of `n` superusers, one per load client: N staff looking at once are N users, each with the
 * API's fair share of requests at once (REQUEST_MAX_RUNNING_PER_USER); one user's 50 clients would
 * mostly measure that user's own line. Superusers, so each sees the bench's jobs.
 */
export async function staffTokens(ctx: AppContext, n: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const user = await createUser(ctx.db, { email: `bench-staff-${i}@example.com`, password: 'bench-password', is_superuser: true });
      return ctx.tokens.createAccessToken(user);
    }),
  );
}

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
  const admin = await createUser(database.db, {
    email: 'bench-admin@example.com',
    password: 'bench-password',
    is_superuser: true,
  });
  return { ctx, admin };
}
