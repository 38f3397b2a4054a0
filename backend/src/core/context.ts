// What route modules need, built once per app (and per test). Only core services: a feature builds
// its own parts (repositories, limiters) from these, so core depends on no feature.
import type { FastifyInstance, RawServerDefault, FastifyBaseLogger } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
// db/ moves under core/ once the data-access rewrite lands; until then core reads it from there.
import type { Db, PoolUse } from '../db/client.ts';
import type { BulkWrites } from '../db/bulk-writes.ts';
import type { CsvExporter } from '../db/csv-exporter.ts';
import type { ExportSlots } from '../db/export-slots.ts';
import type { Listen } from '../db/listen.ts';
import type { SessionActivity } from '../db/session-lock.ts';
import type { JobEvents } from './job-events.ts';
import type { WritesInProgress } from './writes-in-progress.ts';
import type { TokenService } from './security/tokens.ts';
import type { Mailer } from './mailer.ts';

export interface AppContext {
  config: Config;
  db: Db;
  /** The database pool's use right now (metrics). */
  poolUse(): PoolUse;
  /** CSV downloads: COPY on their own connections (PostgreSQL), pages of rows (PGlite). */
  exporter: CsvExporter;
  /** Slots CSV downloads run in (per process, per user), ending those that stall or crawl. */
  exports: ExportSlots;
  /** LISTEN on a database channel (live/hub.ts hears job events through it). */
  listen: Listen;
  /** Say that jobs changed (`ctx.jobEvents.touched(jobId)`): every open jobs page and job page refreshes them. */
  jobEvents: JobEvents;
  /** Sends pending job events, then closes the database this context opened (a database handed in is its owner's to close). */
  closeDatabase(): Promise<void>;
  tokens: TokenService;
  mailer: Mailer;
  /** True when the marketplace adapters talk to the local sandbox rather than real marketplaces. */
  pricesSimulated: boolean;
  /** Big writes (a job's lookups stored, moved, deleted): ONE transaction (PostgreSQL), committed steps (PGlite). */
  bulk: BulkWrites;
  /** The embedded database (PGlite): one session, which the in-process worker shares with every request. */
  embedded: boolean;
  /** The embedded database on its own thread: what its one session is doing (readiness reads it). */
  sessionActivity?: () => SessionActivity;
  /** Big jobs being written in steps (embedded database), which the in-process worker gives way to. */
  writes: WritesInProgress;
  /**
   * Calls a day the workers may make, by marketplace id, as this process's settings say (the status
   * page shows what is left); unset: each marketplace's default (health/status.ts).
   */
  dailyCallBudgets?: Readonly<Record<string, number>>;
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;
