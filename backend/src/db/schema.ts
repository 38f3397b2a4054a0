// Drizzle schema. Lookup tables are built from the marketplace field tables in @app/domain,
// so a field added there becomes a column (after `npm run db:generate -w backend`).
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  type PgColumn,
  bigint,
  bigserial,
  boolean,
  check,
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
import type { AuditAction, AuditTargetType } from '@app/domain/audit';
import type { Filter } from '@app/domain/fields';
import { must } from '@app/domain/must';
import { byMarketplace, dataFields, type MarketplaceId, type MarketplaceInfo } from '@app/domain/marketplaces';

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
    /**
     * "Decisions only" (a scout who sees verdicts, never figures): set by a superuser. Every route that
     * shows a price, offer, profit, history or marketplace answer refuses them (decisions-only-routes.ts).
     */
    decisions_only: boolean().notNull().default(false),
    /** Bumped on every password change: reset tokens carry it, so a used link stops working. */
    password_changed_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Bumped by "Sign out everywhere" and by deactivation: access tokens carry it, so older sessions end. */
    session_stamp: timestamp({ withTimezone: true }).notNull().defaultNow(),
    created_at: now(),
  },
  (t) => [uniqueIndex('users_email_lower_idx').using('btree', sql`lower(${t.email})`)],
);

/** Access tokens signed out before they expire (one sign-out ends one session); pruned once expired. */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text().primaryKey(),
    expires_at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_tokens_expires_at_idx').on(t.expires_at)],
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
    /** What one book cost the dealer (typed, or a pallet's cost divided by its books): the estimated profit subtracts it. */
    cost_per_book: doublePrecision(),
    /** The pallet's total cost when the cost per book came from one (shown back as "Pallet $X ÷ N books"); null when typed. */
    pallet_cost: doublePrecision(),
    /** The rule set version the job's decisions were judged with (rules/), and when; null until judged. */
    rule_set_version_id: integer().references((): AnyPgColumn => ruleSetVersions.id, { onDelete: 'set null' }),
    judged_at: timestamp({ withTimezone: true }),
    /**
     * Whether the job's comparison_rows are kept (every job created since they exist): its
     * comparison pages sorted or filtered on the computed columns read them instead of computing
     * every row. Older jobs, and jobs a test writes straight into the tables, compute as before.
     */
    comparison_stored: boolean().notNull().default(false),
    /**
     * Scheduled re-pricing (jobs/schedule.ts): every this many days the worker re-prices the job
     * (worker/scheduled-reprice.ts); null when the job has no schedule. A paused schedule keeps its
     * interval and next run but does not fire. `schedule_set_by` is who last set or changed it.
     */
    schedule_every_days: integer(),
    schedule_paused: boolean().notNull().default(false),
    schedule_next_run_at: timestamp({ withTimezone: true }),
    schedule_set_by: uuid().references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /**
     * The job's queued lookups were queued by its schedule, not by a person: the queue deals them at
     * half the pace of other batch work (worker/queue.ts). Cleared by a person's re-price or retry.
     */
    queued_by_schedule: boolean().notNull().default(false),
    created_at: now(),
    updated_at: now(),
  },
  (t) => [
    index('jobs_owner_created_idx').on(t.owner_id, t.created_at),
    // The worker's look for due schedules reads only the jobs that have a running one.
    index('jobs_schedule_due_idx').on(t.schedule_next_run_at).where(sql`schedule_every_days IS NOT NULL AND NOT schedule_paused`),
  ],
);

/**
 * One scan of a scan session (a job whose Input Filename is SCAN_SESSION_FILENAME): the ISBN read, who
 * scanned it, and whether it was marked bought or left. `client_id` is made by the phone, so a scan
 * sent twice (a retried or cut upload from an offline phone) joins its session once.
 */
export const scans = pgTable(
  'scans',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    job_id: integer()
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    client_id: uuid().notNull().defaultRandom(),
    isbn: varchar({ length: 13 }).notNull(),
    user_id: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** null until marked: 'bought' or 'left'. */
    mark: varchar({ length: 8 }),
    marked_at: timestamp({ withTimezone: true }),
    scanned_at: now(),
  },
  (t) => [
    uniqueIndex('scans_job_client_idx').on(t.job_id, t.client_id),
    index('scans_job_scanned_idx').on(t.job_id, t.scanned_at),
    // "Bought in another session in the last N days": one probe per scan.
    index('scans_bought_isbn_idx').on(t.isbn, t.marked_at).where(sql`mark = 'bought'`),
  ],
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

/**
 * The page's sortable columns that get a (column, id) index, so a sorted page walks an index and stops
 * after its rows instead of sorting every matching row (a sort over 1M rows took ~1 s). `id` has the
 * primary key and `created_at` its own index below; hidden fields (filter-only) keep no index.
 */
function sortIndexed(m: MarketplaceInfo): string[] {
  return m.fields.filter((f) => f.column && f.sortable && f.name !== 'id' && f.name !== 'created_at').map((f) => f.name);
}

/** PostgreSQL cuts names at 63 bytes; a long column name keeps its start and a short hash, so names stay unique. */
function indexName(table: string, column: string): string {
  const name = `${table}_${column}_sort_idx`;
  if (name.length <= 63) return name;
  const hash = createHash('sha1').update(column).digest('hex').slice(0, 6);
  return `${name.slice(0, 63 - hash.length - 1)}_${hash}`;
}

function lookupTable(m: MarketplaceInfo) {
  const name = m.table;
  const fields = dataFields(m);
  const answerColumns = new Set(fields.map((f) => f.name));
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
      /**
       * How many offers (the length of `offers`), kept beside them so the comparison, its CSV and
       * rules read a number instead of opening every row's offers; null until answered.
       */
      offer_count: integer(),
      /** When the marketplace answered; a reused row keeps the original answer's time, so its age is honest. */
      answered_at: timestamp({ withTimezone: true }),
      /** The row whose answer was copied here instead of asking again (worker/reuse.ts); null when asked anew. */
      reused_from: bigint({ mode: 'number' }),
      /** The headline price of this marketplace's previous answer for the ISBN (history/), for "change since the previous look". */
      previous_price: doublePrecision(),
      previous_currency: varchar({ length: 3 }),
      created_at: now(),
      updated_at: now(),
      ...dataColumns,
    },
    (t) => [
      // An answer's text is empty until the lookup is answered, so its trigram index holds only rows with
      // a value (`col ILIKE …` implies one). A GIN index took an entry for every empty row of a new job.
      ...fields
        .filter((f) => TRIGRAM_FIELDS.includes(f.name))
        .map((f) =>
          index(`${name}_${f.name}_trgm_idx`)
            .using('gin', sql`${sql.identifier(f.name)} gin_trgm_ops`)
            .where(sql`${sql.identifier(f.name)} IS NOT NULL`),
        ),
      index(`${name}_job_status_idx`).on(t.isbn_lookup_job_id, t.lookup_status),
      // The job page's comparison joins a job's rows of each marketplace on ISBN (comparison/query.ts).
      index(`${name}_job_isbn_idx`).on(t.isbn_lookup_job_id, t.isbn),
      index(`${name}_created_idx`).on(t.created_at, t.id),
      // The worker's claim scan: each active job's queued rows, oldest first (worker/queue.ts).
      index(`${name}_job_queue_idx`).on(t.isbn_lookup_job_id, t.next_attempt_at, t.id).where(sql`lookup_status = 'queued'`),
      index(`${name}_lease_idx`).on(t.lease_expires_at).where(sql`lookup_status = 'pending'`),
      // Every shown sortable column (lookup_status included: it also serves the status filter and counts).
      // Status trails the key, so a count of "status = … and a range of this column" reads only the
      // index (the worker's update of every row leaves the heap's first half dead: a seq scan read 31k pages).
      // An answer's columns are empty until the lookup is answered, so their indexes hold only the rows
      // with a value: a sorted page reads those, then the empty ones by id (db/nulls-last-page.ts), and
      // a filter on the column implies a value. Indexing the empty rows of a queued job cost every
      // ingest and every claim (1M-ISBN database, Abe Books: 200k queued rows inserted 4.5 → 3.1–3.4 s,
      // index size 304 → 165 MB, a claim-like status update of 20k rows 1.07 → 0.67 s).
      ...sortIndexed(m).map((c) => {
        const column = must((t as unknown as Record<string, PgColumn>)[c], 'a column of the field table');
        if (c === 'lookup_status') return index(indexName(name, c)).on(column, t.id);
        const sorted = index(indexName(name, c)).on(column, t.id, t.lookup_status);
        return answerColumns.has(c) ? sorted.where(sql`${column} IS NOT NULL`) : sorted;
      }),
      // The metrics scrape: the queued rows' count and the oldest of them (metrics/queue-gauges.ts).
      index(`${name}_queued_created_idx`).on(t.created_at).where(sql`lookup_status = 'queued'`),
      // The reuse search: the freshest answer for an ISBN (worker/reuse.ts).
      index(`${name}_reusable_idx`)
        .on(t.isbn, t.answered_at.desc())
        .where(sql`lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL`),
      // Every row, queued ones too: without the queued rows a paste's insert cost ~20 % less CPU, but an
      // ISBN `contains` while a big job waits then read the queued rows one by one (PostgreSQL, 1M rows
      // of which 250k queued: 5 ms → 570 ms). Measured and not adopted.
      index(`${name}_isbn_trgm_idx`).using('gin', sql`${t.isbn} gin_trgm_ops`),
    ],
  );
}

export type LookupTable = ReturnType<typeof lookupTable>;

/** Each marketplace's lookup table, by marketplace id, built from its field table. */
export const LOOKUP_TABLES: Record<MarketplaceId, LookupTable> = byMarketplace(lookupTable);

// drizzle-kit finds tables only among a schema module's named exports, so each is exported by name
// too (one line per marketplace; see docs/marketplaces/adding.md).
export const abeBooksLookups = LOOKUP_TABLES.abe_books;
export const biblioLookups = LOOKUP_TABLES.biblio;
export const alibrisLookups = LOOKUP_TABLES.alibris;
export const palletIqLookups = LOOKUP_TABLES.pallet_iq;
export const amazonLookups = LOOKUP_TABLES.amazon;
export const ebayLookups = LOOKUP_TABLES.ebay;

/**
 * The next free request slot of each marketplace, shared by every worker process so that their
 * combined request rate stays within the marketplace's limit (see worker/rate-limiter.ts).
 */
export const marketplaceRateSlots = pgTable('marketplace_rate_slots', {
  marketplace: varchar({ length: 32 }).primaryKey(),
  next_at: timestamp({ withTimezone: true }).notNull(),
});

/**
 * Calls spent today of a marketplace's daily quota (eBay: 5,000 a day per application), shared by
 * every worker (worker/daily-budget.ts). `day` is the quota's own calendar day (eBay's resets at
 * midnight Pacific); `resumes_at` is set once the day's budget is spent, for the job page's hint.
 */
export const marketplaceDailyCalls = pgTable('marketplace_daily_calls', {
  marketplace: varchar({ length: 32 }).primaryKey(),
  day: varchar({ length: 10 }).notNull(),
  used: integer().notNull(),
  resumes_at: timestamp({ withTimezone: true }),
  /** Today's calls of batch jobs by user id (worker/daily-budget.ts shares the day between users). */
  per_user: jsonb().$type<Record<string, number>>().notNull().default({}),
});

/**
 * A book's details by ISBN from Open Library (books/details/): kept, refreshed rarely, shown on the
 * comparison, the book page and in the comparison CSV. `found` false: Open Library does not know the
 * ISBN (asked at `fetched_at`, asked again after the refresh period like any other).
 */
export const bookDetails = pgTable(
  'book_details',
  {
    isbn: varchar({ length: 13 }).primaryKey(),
    found: boolean().notNull(),
    title: text(),
    authors: text(),
    publisher: text(),
    publish_year: integer(),
    cover_url: text(),
    fetched_at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('book_details_fetched_idx').on(t.fetched_at)],
);

/**
 * Keepa's token bucket as the last answer left it, shared by every worker (keepa/tokens.ts): the
 * balance (negative after a big batch), the refill per minute, and when the answer was given. One row.
 */
export const keepaTokens = pgTable('keepa_tokens', {
  id: integer().primaryKey(),
  tokens_left: doublePrecision().notNull(),
  refill_rate: doublePrecision().notNull(),
  at: timestamp({ withTimezone: true }).notNull(),
});

/**
 * When Keepa was last asked about each ISBN (keepa/fetcher.ts): `found` false when Keepa does not know
 * it. Asked again after KEEPA_REFRESH. Its points are kept in price_observations (marketplace 'keepa').
 * The stats_* columns are Keepa's own figures from its `stats` object (shown beside our velocity on
 * the book page, docs/features/velocity.md); stats_at is null when the answer had no stats, and each
 * figure is null where Keepa had none (its -1 / -2).
 */
export const keepaBooks = pgTable(
  'keepa_books',
  {
    isbn: varchar({ length: 13 }).primaryKey(),
    found: boolean().notNull(),
    asin: varchar({ length: 10 }),
    fetched_at: timestamp({ withTimezone: true }).notNull(),
    /** Keepa's server time of the answer: its windows end there. */
    stats_at: timestamp({ withTimezone: true }),
    stats_rank_drops_30: integer(),
    stats_rank_drops_90: integer(),
    stats_rank_drops_180: integer(),
    stats_avg_rank_90: integer(),
    stats_avg_rank_180: integer(),
    stats_current_rank: integer(),
    /** Dollars (Keepa sends cents). */
    stats_used_price: doublePrecision(),
    stats_new_price: doublePrecision(),
  },
  (t) => [index('keepa_books_fetched_idx').on(t.fetched_at)],
);

/**
 * How fast each ISBN sells (velocity/), computed from Keepa's rank series when there is one, else from
 * our own Amazon observations, whenever either is written; read by the comparison (docs/features/velocity.md).
 */
export const bookVelocity = pgTable('book_velocity', {
  isbn: varchar({ length: 13 }).primaryKey(),
  /** 'keepa' or 'amazon' (our own looks). */
  source: varchar({ length: 16 }).notNull(),
  /** Ranked points within the last 180 days the figures rest on. */
  observations: integer().notNull(),
  rank_drops_30: integer().notNull(),
  rank_drops_90: integer().notNull(),
  rank_drops_180: integer().notNull(),
  avg_rank_90: doublePrecision(),
  avg_rank_180: doublePrecision(),
  sale_days_180: integer().notNull(),
  computed_at: timestamp({ withTimezone: true }).notNull(),
});

/**
 * Attempt counters for throttling (logins, recovery emails), shared by every API process.
 * One row per key (e.g. account+address); see core/security/attempt-limiter.ts.
 */
export const attemptCounters = pgTable('attempt_counters', {
  key: text().primaryKey(),
  attempts: integer().notNull(),
  window_start: timestamp({ withTimezone: true }).notNull(),
  blocked_until: timestamp({ withTimezone: true }),
  /** For a key that counts distinct members (an address's failed accounts): those counted in the window. */
  members: text().array(),
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

/**
 * Every answer a marketplace gave for an ISBN, kept apart from the lookup rows so that re-pricing a
 * job or reusing an answer never erases what was seen before (history/). Compact: the headline price
 * (a selling marketplace's cheapest total, PalletIQ's value) and the offer count on every row, the
 * offers themselves only when they differ from the previous observation. Pruned after
 * PRICE_HISTORY_RETENTION.
 */
export const priceObservations = pgTable(
  'price_observations',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    marketplace: varchar({ length: 32 }).notNull(),
    isbn: varchar({ length: 13 }).notNull(),
    observed_at: timestamp({ withTimezone: true }).notNull(),
    /** completed or no_offers_available: failures are not observations. */
    status: varchar({ length: 32 }).notNull(),
    price: doublePrecision(),
    currency: varchar({ length: 3 }),
    offer_count: integer().notNull().default(0),
    /** Null when the offers equal the previous observation's (read the latest non-null before it). */
    offers: jsonb(),
    /** The lookup row that asked (it may be gone since: jobs are deleted, history stays). */
    lookup_id: bigint({ mode: 'number' }),
    /**
     * Market facts of an answer that has them (Amazon's; Keepa's points, marketplace 'keepa'): sales
     * rank (lower sells faster), Buy Box, lowest used and new, in the headline's currency.
     */
    sales_rank: integer(),
    buy_box_price: doublePrecision(),
    lowest_used_price: doublePrecision(),
    lowest_new_price: doublePrecision(),
  },
  (t) => [
    index('price_observations_isbn_idx').on(t.isbn, t.marketplace, t.observed_at.desc()),
    index('price_observations_observed_idx').on(t.observed_at),
  ],
);

/** Seller fees per marketplace, set by superusers; a marketplace without a row uses the defaults in @app/domain/fees. */
export const feeSchedules = pgTable('fee_schedules', {
  marketplace: varchar({ length: 32 }).primaryKey(),
  /** Percent of the sale price (e.g. 8 for 8 %). */
  percent: doublePrecision().notNull(),
  /** Fixed fee per item sold, in USD. */
  fixed: doublePrecision().notNull(),
  /** Per-item bounds of the percentage commission, in USD (AbeBooks: $0.50 and $40); null: no bound. */
  min_commission: doublePrecision(),
  max_commission: doublePrecision(),
  /** What the marketplace pays the seller towards shipping, in USD. */
  shipping_credit: doublePrecision().notNull(),
  updated_by: uuid().references(() => users.id, { onDelete: 'set null' }),
  updated_at: now(),
});

/** A user's named, ordered list of buy rules (rules/). Deleting one only marks it, so jobs keep the versions they were judged with. */
export const ruleSets = pgTable(
  'rule_sets',
  {
    id: serial().primaryKey(),
    owner_id: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar({ length: 255 }).notNull(),
    /** At most one live rule set is the team default (set by a superuser): new jobs are judged with it. */
    is_team_default: boolean().notNull().default(false),
    deleted_at: timestamp({ withTimezone: true }),
    created_at: now(),
    updated_at: now(),
  },
  (t) => [
    index('rule_sets_owner_idx').on(t.owner_id, t.created_at),
    uniqueIndex('rule_sets_one_team_default_idx').on(t.is_team_default).where(sql`is_team_default AND deleted_at IS NULL`),
  ],
);

/** Every edit of a rule set is a new version; jobs point at the version they were judged with. */
export const ruleSetVersions = pgTable(
  'rule_set_versions',
  {
    id: serial().primaryKey(),
    rule_set_id: integer()
      .notNull()
      .references(() => ruleSets.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    /** The ordered rules: [{ outcome, color, conditions: [{ field, operator, value }] }]. */
    rules: jsonb().$type<unknown[]>().notNull(),
    created_by: uuid().references(() => users.id, { onDelete: 'set null' }),
    created_at: now(),
  },
  (t) => [uniqueIndex('rule_set_versions_set_version_idx').on(t.rule_set_id, t.version)],
);

/**
 * A job's decisions: per comparison row (the row id of the job's first marketplace), the outcome of
 * the first matching rule ("No rule" when none matched). Stored when the job is judged, so the job
 * page filters and sorts by decision through an index instead of evaluating every rule per request.
 */
export const jobDecisions = pgTable(
  'job_decisions',
  {
    job_id: integer()
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    row_id: bigint({ mode: 'number' }).notNull(),
    /** The matching rule's position (0 first); null for "No rule". */
    rule_index: integer(),
    outcome: varchar({ length: 64 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.job_id, t.row_id] }),
    index('job_decisions_outcome_idx').on(t.job_id, t.outcome, t.row_id),
    // A page sorted by decision (rule order, then row) walks this instead of sorting the whole
    // comparison; with the outcome in it, a filter by decision on that walk needs no table access.
    index('job_decisions_rank_idx').on(t.job_id, t.rule_index, t.row_id, t.outcome),
  ],
);

/**
 * The comparison's computed columns, stored per ISBN of a job (comparison/stored.ts): the best
 * USD price, its source and the spread, as comparison/query.ts computes them. Written empty with the
 * job's lookups and recomputed in the same transaction as each write of a price (the worker's
 * finish and reuse), so a page sorted by spread or filtered on best source walks an index instead
 * of joining and computing every row of the job. row_id is the comparison row's id (the base
 * marketplace's lookup id: upload order).
 */
export const comparisonRows = pgTable(
  'comparison_rows',
  {
    job_id: integer()
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    row_id: bigint({ mode: 'number' }).notNull(),
    isbn: varchar({ length: 13 }).notNull(),
    best_price: doublePrecision(),
    best_source: text(),
    spread: doublePrecision(),
  },
  (t) => [
    primaryKey({ columns: [t.job_id, t.row_id] }),
    // The worker finds (and locks) a lookup's comparison row by its job and ISBN.
    uniqueIndex('comparison_rows_isbn_idx').on(t.job_id, t.isbn),
    // Each sortable column, walked either way: only the rows with a value, as the lookup tables'
    // answer columns (a sorted page reads those, then the empty ones by row, db/nulls-last-page.ts;
    // a filter on the column implies a value). A job's rows are written empty, and indexing every
    // empty row in six indexes (both directions, NULLs included) was a quarter of a paste's
    // time on the embedded database (issue 29).
    ...(['best_price', 'best_source', 'spread'] as const).map((c) =>
      index(`comparison_rows_${c}_idx`).on(t.job_id, t[c], t.row_id).where(sql`${t[c]} IS NOT NULL`),
    ),
  ],
);

/**
 * One row per running worker (in the API process or `npm run worker`), upserted every `beat_ms`
 * and deleted on a graceful stop, so a row whose last_seen is older than three beats is a worker
 * that died or hangs (GET /health/workers).
 */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  id: uuid().primaryKey(),
  host: text().notNull(),
  pid: integer().notNull(),
  started_at: timestamp({ withTimezone: true }).notNull(),
  last_seen: timestamp({ withTimezone: true }).notNull(),
  /** The worker's own interval: staleness is judged against it, whatever the API is configured with. */
  beat_ms: integer().notNull(),
  lookups_in_flight: integer().notNull(),
});

/**
 * Who did what (audit/): written in the same transaction as the action it records, pruned after
 * AUDIT_RETENTION. No foreign keys on purpose: the trail outlives the users and jobs it names, so
 * the actor's email and the target's label are kept as they were. Never a password or a token.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    created_at: now(),
    /** The signed-in user who acted; null for an anonymous action (a failed login). Text: filters compare it as text. */
    actor_id: varchar({ length: 36 }),
    actor_email: varchar({ length: 255 }),
    action: varchar({ length: 64 }).$type<AuditAction>().notNull(),
    target_type: varchar({ length: 32 }).$type<AuditTargetType>(),
    target_id: varchar({ length: 64 }),
    target_label: varchar({ length: 255 }),
    client_address: varchar({ length: 64 }),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_events_created_idx').on(t.created_at, t.id),
    index('audit_events_action_idx').on(t.action, t.created_at),
    index('audit_events_actor_idx').on(t.actor_id, t.created_at),
    // The page's filters and sorts (issue 29: over 1M events each was a 1–5 s scan on the embedded
    // server). `equals` newest first, and a sort on the column (its groups of equal values are small,
    // so the index's order and a short sort on id within each serve a page):
    ...(['actor_email', 'target_id', 'target_label', 'client_address'] as const).map((c) =>
      index(`audit_events_${c}_idx`).on(t[c], t.created_at),
    ),
    // a sort on a column of a few values, whose groups are too large to sort (the page's order is the
    // column then id):
    ...(['action', 'target_type'] as const).map((c) => index(`audit_events_${c}_sort_idx`).on(t[c], t.id)),
    // `contains`, through trigrams, on the texts people search in:
    ...(['actor_email', 'target_label', 'client_address'] as const).map((c) =>
      index(`audit_events_${c}_trgm_idx`).using('gin', sql`${sql.identifier(c)} gin_trgm_ops`),
    ),
  ],
);

/**
 * A user's watch on one book (isbn) or one job (job_id), never both (watches/): its conditions hold
 * over a book's comparison row as the worker writes it. `armed` and `last_fired_at` sum up the
 * per-book state in watch_states: armed while no book of the watch waits to re-arm.
 */
export const watches = pgTable(
  'watches',
  {
    id: serial().primaryKey(),
    user_id: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isbn: varchar({ length: 13 }),
    job_id: integer().references(() => jobs.id, { onDelete: 'cascade' }),
    name: varchar({ length: 255 }),
    /** Validated as the rule editor's conditions before they are saved (domain/src/watches.ts). */
    conditions: jsonb().$type<Filter[]>().notNull(),
    /** Whether its notifications go out in the hourly email digest. */
    email: boolean().notNull().default(true),
    armed: boolean().notNull().default(true),
    last_fired_at: timestamp({ withTimezone: true }),
    created_at: now(),
  },
  (t) => [
    // The write-back finds the watches of the ISBNs and jobs it wrote through these.
    index('watches_isbn_idx').on(t.isbn).where(sql`isbn IS NOT NULL`),
    index('watches_job_idx').on(t.job_id).where(sql`job_id IS NOT NULL`),
    index('watches_user_idx').on(t.user_id, t.id),
    check('watches_book_xor_job', sql`(${t.isbn} IS NULL) <> (${t.job_id} IS NULL)`),
  ],
);

/**
 * The edge-trigger state of one book of a watch (a book watch has one row, a job watch one per book
 * it has seen): disarmed once it fired, armed again when its conditions turn false. No row: armed,
 * never fired. `last_fired_at` stays after re-arming: a book fires at most once a day per watch.
 */
export const watchStates = pgTable(
  'watch_states',
  {
    watch_id: integer()
      .notNull()
      .references(() => watches.id, { onDelete: 'cascade' }),
    isbn: varchar({ length: 13 }).notNull(),
    armed: boolean().notNull().default(true),
    last_fired_at: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.watch_id, t.isbn] }),
    // "Does any book of this watch wait to re-arm?" (watches.armed) in one probe, however many books a job watch has.
    index('watch_states_disarmed_idx').on(t.watch_id).where(sql`NOT armed`),
    // "Which watches wait to re-arm on these books?" (watches/evaluate.ts): the write-back's batch by ISBN.
    index('watch_states_disarmed_isbn_idx').on(t.isbn).where(sql`NOT armed`),
  ],
);

/** What a watch said when it fired, to its user: read in the app, and sent in the hourly digest when the watch emails. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    user_id: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    watch_id: integer().references(() => watches.id, { onDelete: 'set null' }),
    isbn: varchar({ length: 13 }).notNull(),
    job_id: integer().references(() => jobs.id, { onDelete: 'set null' }),
    message: text().notNull(),
    created_at: now(),
    read_at: timestamp({ withTimezone: true }),
    emailed_at: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('notifications_user_idx').on(t.user_id, t.id),
    index('notifications_unread_idx').on(t.user_id).where(sql`read_at IS NULL`),
    // The digest's sweep: notifications waiting for an email.
    index('notifications_unsent_idx').on(t.user_id, t.id).where(sql`emailed_at IS NULL`),
  ],
);

/** When each user's last watch digest went out: at most one an hour. */
export const watchDigests = pgTable('watch_digests', {
  user_id: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sent_at: timestamp({ withTimezone: true }).notNull(),
});
