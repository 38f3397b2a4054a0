// Drizzle schema. Lookup tables are built from the marketplace field tables in @app/domain,
// so a field added there becomes a column (after `npm run db:generate -w backend`).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { byMarketplace, dataFields, type MarketplaceId } from '@app/domain/marketplaces';

const now = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: varchar({ length: 255 }).notNull(),
    full_name: varchar({ length: 255 }),
    hashed_password: text().notNull(),
    is_active: boolean().notNull().default(true),
    is_superuser: boolean().notNull().default(false),
    /** Bumped on every password change: reset tokens carry it, so a used link stops working. */
    password_changed_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    created_at: now(),
  },
  (t) => [uniqueIndex('users_email_lower_idx').using('btree', sql`lower(${t.email})`)],
);

export const items = pgTable(
  'items',
  {
    id: uuid().primaryKey().defaultRandom(),
    title: varchar({ length: 255 }).notNull(),
    description: varchar({ length: 255 }),
    owner_id: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: now(),
  },
  (t) => [index('items_owner_idx').on(t.owner_id, t.created_at)],
);

function sourceFlags() {
  return byMarketplace(() => boolean().notNull().default(false));
}

export const jobs = pgTable(
  'jobs',
  {
    id: serial().primaryKey(),
    name: varchar({ length: 255 }).notNull(),
    input_filename: varchar({ length: 255 }).notNull(),
    owner_id: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One flag per marketplace (named by its id): whether the job asks it. */
    ...sourceFlags(),
    /** What the upload parser did: rows read, accepted, duplicates, sheet and column used. */
    ingest_report: jsonb().$type<object>().notNull().default({}),
    /** Set by cancel (jobs/control.ts): the job's queued lookups were stopped; cleared by retry and re-price. */
    cancelled_at: timestamp({ withTimezone: true }),
    /** Set by re-price: answers older than this are never reused for the job (worker/reuse.ts). */
    repriced_at: timestamp({ withTimezone: true }),
    created_at: now(),
    updated_at: now(),
  },
  (t) => [index('jobs_owner_created_idx').on(t.owner_id, t.created_at)],
);

/** Cells of an upload that could not be used, kept so they can be downloaded later. */
export const jobRejections = pgTable(
  'job_rejections',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    job_id: integer()
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    sheet: text(),
    row_number: integer().notNull(),
    raw_value: text().notNull(),
    reason: text().notNull(),
  },
  (t) => [index('job_rejections_job_idx').on(t.job_id, t.row_number)],
);

// Text fields people search with `contains` get a trigram index (ILIKE '%…%' stays fast).
const TRIGRAM_FIELDS = ['title', 'vendor_name', 'seller', 'sellername'];

function lookupTable(name: string, fields: ReturnType<typeof dataFields>) {
  const dataColumns = Object.fromEntries(
    fields.map((f) => [f.name, f.type === 'number' ? doublePrecision() : f.type === 'date' ? timestamp({ withTimezone: true }) : text()]),
  );
  return pgTable(
    name,
    {
      id: bigserial({ mode: 'number' }).primaryKey(),
      isbn_lookup_job_id: integer()
        .notNull()
        .references(() => jobs.id, { onDelete: 'cascade' }),
      isbn: varchar({ length: 13 }).notNull(),
      input_filename: varchar({ length: 255 }),
      lookup_status: varchar({ length: 32 }).notNull().default('queued'),
      attempts: integer().notNull().default(0),
      next_attempt_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
      lease_expires_at: timestamp({ withTimezone: true }),
      last_error: text(),
      /** Every offer the marketplace returned, not only the chosen one. */
      offers: jsonb(),
      /** When the marketplace answered; a reused row keeps the original answer's time, so its age is honest. */
      answered_at: timestamp({ withTimezone: true }),
      /** The row whose answer was copied here instead of asking again (worker/reuse.ts); null when asked anew. */
      reused_from: bigint({ mode: 'number' }),
      created_at: now(),
      updated_at: now(),
      ...dataColumns,
    },
    (t) => [
      ...fields
        .filter((f) => TRIGRAM_FIELDS.includes(f.name))
        .map((f) => index(`${name}_${f.name}_trgm_idx`).using('gin', sql`${sql.identifier(f.name)} gin_trgm_ops`)),
      index(`${name}_job_status_idx`).on(t.isbn_lookup_job_id, t.lookup_status),
      // The job page's comparison joins a job's rows of each marketplace on ISBN (comparison/query.ts).
      index(`${name}_job_isbn_idx`).on(t.isbn_lookup_job_id, t.isbn),
      index(`${name}_created_idx`).on(t.created_at, t.id),
      // The worker's claim scan: each active job's queued rows, oldest first (worker/queue.ts).
      index(`${name}_job_queue_idx`).on(t.isbn_lookup_job_id, t.next_attempt_at, t.id).where(sql`lookup_status = 'queued'`),
      index(`${name}_lease_idx`).on(t.lease_expires_at).where(sql`lookup_status = 'pending'`),
      index(`${name}_status_idx`).on(t.lookup_status),
      // The reuse search: the freshest answer for an ISBN (worker/reuse.ts).
      index(`${name}_reusable_idx`)
        .on(t.isbn, t.answered_at.desc())
        .where(sql`lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL`),
      index(`${name}_isbn_trgm_idx`).using('gin', sql`${t.isbn} gin_trgm_ops`),
    ],
  );
}

export type LookupTable = ReturnType<typeof lookupTable>;

/** Each marketplace's lookup table, by marketplace id, built from its field table. */
export const LOOKUP_TABLES: Record<MarketplaceId, LookupTable> = byMarketplace((m) => lookupTable(m.table, dataFields(m)));

// drizzle-kit finds tables only among a schema module's named exports, so each is exported by name
// too (one line per marketplace; see README "Adding a marketplace").
export const abeBooksLookups = LOOKUP_TABLES.abe_books;
export const biblioLookups = LOOKUP_TABLES.biblio;
export const alibrisLookups = LOOKUP_TABLES.alibris;
export const palletIqLookups = LOOKUP_TABLES.pallet_iq;

/**
 * The next free request slot of each marketplace, shared by every worker process so that their
 * combined request rate stays within the marketplace's limit (see worker/rate-limiter.ts).
 */
export const marketplaceRateSlots = pgTable('marketplace_rate_slots', {
  marketplace: varchar({ length: 32 }).primaryKey(),
  next_at: timestamp({ withTimezone: true }).notNull(),
});

/**
 * Attempt counters for throttling (logins, recovery emails), shared by every API process.
 * One row per key (e.g. account+address); see auth/attempt-limiter.ts.
 */
export const attemptCounters = pgTable('attempt_counters', {
  key: text().primaryKey(),
  attempts: integer().notNull(),
  window_start: timestamp({ withTimezone: true }).notNull(),
  blocked_until: timestamp({ withTimezone: true }),
});

/**
 * Per job and source: how many lookups there are and how many have finished. Written at ingest
 * and moved on in the same statement that finishes lookups (worker/queue.ts), so the jobs list
 * and the queue's choice of active jobs read a row instead of counting lookups.
 */
export const jobProgress = pgTable(
  'job_progress',
  {
    job_id: integer()
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    source: varchar({ length: 32 }).notNull(),
    total: integer().notNull(),
    processed: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.job_id, t.source] }),
    // The queue's scan for jobs with lookups left, per source.
    index('job_progress_active_idx').on(t.source, t.job_id).where(sql`processed < total`),
  ],
);
