// What route modules need, built once per app (and per test).
import type { FastifyInstance, RawServerDefault, FastifyBaseLogger } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { CsvExporter } from './db/csv-exporter.ts';
import type { TokenService } from './auth/tokens.ts';
import type { AttemptLimiter } from './auth/attempt-limiter.ts';
import type { Mailer } from './email/mailer.ts';
import type { UsersRepository } from './users/repository.ts';

export interface AppContext {
  config: Config;
  db: Db;
  /** CSV downloads: COPY on their own connections (PostgreSQL), pages of rows (PGlite). */
  exporter: CsvExporter;
  /** Closes the database this context opened (a database handed in is its owner's to close). */
  closeDatabase(): Promise<void>;
  tokens: TokenService;
  /** Login and recovery-email limits, counted in the database. */
  limiter: AttemptLimiter;
  mailer: Mailer;
  users: UsersRepository;
  /** True when the marketplace adapters talk to the local sandbox rather than real marketplaces. */
  pricesSimulated: boolean;
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;
