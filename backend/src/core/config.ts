// One schema over the environment, parsed once at start; every problem is listed in one message.
//
// The schema is made of sections. The core sections (server, database, auth, mail, uploads) live
// here. Feature sections (marketplaces, worker, sandbox) live beside their features and are handed
// to `parseConfig` by the process entry points (src/environment.ts): core never imports a feature,
// yet every process parses the same, whole schema and reports all problems together.
//
// Each setting has one default, its `.default()` in the one section that reads it. Core settings
// keep the variable names as keys (one name in .env.example, here and in the code reading them);
// a feature's section turns its variables into the options that feature takes.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { envDuration } from './duration.ts';
import { LOG_LEVELS } from './logging.ts';
import { ensurePrivateDir } from './private-dir.ts';

export class ConfigError extends Error {}

/** true/false/1/0/yes/no. */
export const envBool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
export const envInt = z.coerce.number().int();
export const envPort = z.coerce.number().int().min(0).max(65535);

const serverSection = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: envPort.default(8000),
  PROJECT_NAME: z.string().default('Price Lookup Dashboard'),
  /** Public URL used in emailed links; http://localhost:$PORT when unset (filled in by coreConfig). */
  FRONTEND_HOST: z.url().optional(),
  SERVE_FRONTEND: envBool.default(true),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  // A request body must keep coming (no longer gap) and be complete within the total, else 408:
  // a body trickled a byte at a time would otherwise hold its connection for ever.
  REQUEST_BODY_IDLE_TIMEOUT_MS: envInt.positive().default(10_000),
  REQUEST_BODY_TIMEOUT_MS: envInt.positive().default(300_000),
  // Requests one user may have running per API process; the next wait in the user's own line (a
  // browser opens at most 6 at once), past the waiting ones 429: a script firing hundreds in
  // parallel gets a few turns, like anyone else.
  REQUEST_MAX_RUNNING_PER_USER: envInt.positive().default(4),
  REQUEST_MAX_WAITING_PER_USER: envInt.min(0).default(100),
  // Behind a reverse proxy: 'true' (trust X-Forwarded-For entirely), a hop count, or the proxies'
  // addresses. Off by default: a client-sent X-Forwarded-For must not pick the address we throttle.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v)),
  // On SIGTERM/SIGINT: how long requests and lookups in flight get to finish before the process
  // exits (lookups not finished by then go back to the queue).
  SHUTDOWN_TIMEOUT_MS: envInt.positive().default(10_000),
});

// GET /api/v1/metrics answers only a bearer of this token (404 while unset): metrics name jobs'
// volumes and the deployment's shape, not for everyone.
const metricsSection = z.object({
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
});

const databaseSection = z.object({
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.url().optional(),
  DATABASE_POOL_SIZE: envInt.positive().default(10),
  EXPORT_MAX_CONCURRENT: envInt.positive().default(4),
  EXPORT_STALL_TIMEOUT_MS: envInt.positive().default(60_000),
  // Per user, and the least a download must move per second (judged over EXPORT_STALL_TIMEOUT_MS).
  EXPORT_MAX_PER_USER: envInt.positive().default(2),
  EXPORT_MIN_BYTES_PER_SECOND: envInt.min(0).default(10_000),
});

const authSection = z.object({
  SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters').optional(),
  ACCESS_TOKEN_EXPIRE_MINUTES: envInt.positive().default(60 * 24 * 8),
  FIRST_SUPERUSER: z.email().default('admin@example.com'),
  FIRST_SUPERUSER_PASSWORD: z.string().min(8).max(128).optional(),
  EMAIL_RESET_TOKEN_EXPIRE_HOURS: z.coerce.number().positive().default(48),
  LOGIN_MAX_ATTEMPTS: envInt.positive().default(10),
  // Accounts with failed logins per client address (password spraying), over their own window: one
  // account's repeated failures count once, so one person's typos do not lock out their office.
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS: envInt.positive().default(10),
  // How long a browser that signed in keeps its device cookie (its owner's logins then skip the
  // address and account+address limits, counted per device instead).
  LOGIN_DEVICE_DAYS: envInt.positive().default(90),
  LOGIN_ADDRESS_WINDOW_SECONDS: envInt.positive().default(900),
  LOGIN_WINDOW_SECONDS: envInt.positive().default(300),
  LOGIN_MAX_DELAY_SECONDS: envInt.positive().default(900),
  RECOVERY_EMAILS_PER_ADDRESS: envInt.positive().default(3),
  RECOVERY_EMAILS_PER_CLIENT: envInt.positive().default(20),
  RECOVERY_WINDOW_SECONDS: envInt.positive().default(3600),
  // Sign-ups per client address per window (each one hashes a password and adds an account).
  SIGNUP_MAX_PER_ADDRESS: envInt.positive().default(20),
  SIGNUP_WINDOW_SECONDS: envInt.positive().default(3600),
});

const mailSection = z.object({
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: envInt.positive().default(587),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_TLS: envBool.default(true),
  SMTP_SSL: envBool.default(false),
  EMAILS_FROM_EMAIL: z.email().default('noreply@example.com'),
  EMAILS_FROM_NAME: z.string().optional(),
});

const uploadsSection = z.object({
  UPLOAD_MAX_BYTES: envInt.positive().default(20 * 1024 * 1024),
  UPLOAD_MAX_ROWS: envInt.positive().default(200_000),
  UPLOAD_MAX_ISBNS: envInt.positive().default(150_000),
  UPLOAD_MAX_UNCOMPRESSED_BYTES: envInt.positive().default(200 * 1024 * 1024),
  // Rejected cells (or pasted codes) kept per job for its report and download; the rest are counted.
  UPLOAD_MAX_REJECTIONS_KEPT: envInt.positive().default(10_000),
  // Cells and rows one file may hold, blank ones too (a tiny workbook can describe millions).
  UPLOAD_MAX_CELLS: envInt.positive().default(3_000_000),
  // .xls is read whole into memory (SheetJS); .xlsx and .csv are streamed and need no such cap.
  UPLOAD_XLS_MAX_BYTES: envInt.positive().default(4 * 1024 * 1024),
  UPLOAD_PARSE_MAX_MEMORY_MB: envInt.min(64).default(256),
  UPLOAD_MAX_CONCURRENT_PARSES: envInt.positive().default(4),
  // Uploads one user may have in progress (being received or read) per API process.
  UPLOAD_MAX_PER_USER: envInt.positive().default(2),
  UPLOAD_PARSE_QUEUE_WAIT_MS: envInt.min(0).default(10_000),
});

// Live updates (jobs/events): how often a process that changes jobs sends one notification, and a
// stream one event (so at most a few a second either way); the heartbeat keeps proxies from
// closing a quiet stream and is how often open streams' sessions are read again (one query for all of
// them, so a short one, as tests of a stream's end configure, costs little); each user may hold a few
// open (one per tab).
const liveSection = z.object({
  LIVE_UPDATE_INTERVAL_MS: envInt.min(10).default(250),
  LIVE_HEARTBEAT_MS: envInt.min(100).default(15_000),
  LIVE_MAX_STREAMS_PER_USER: envInt.positive().default(10),
});

// Answers and scans: how long a marketplace's answer stays good enough to reuse (the worker fills a
// lookup from it instead of asking; a scan's verdict is final on it), and how far back a scan looks
// for a copy the team already bought, and how old an answer the offline pack still carries.
const answersSection = z.object({
  /** An ISBN answered this recently (e.g. 24h) is filled from that answer instead of a request; 0 turns it off. */
  LOOKUP_REUSE_WINDOW: envDuration.default(86_400_000),
  SCAN_DUPLICATE_DAYS: envInt.min(0).default(30),
  /** The offline pack (/scan without a signal) holds the team's answers of this many days. */
  OFFLINE_PACK_DAYS: envInt.positive().default(30),
});

export const CORE_SECTIONS = {
  server: serverSection,
  database: databaseSection,
  auth: authSection,
  mail: mailSection,
  uploads: uploadsSection,
  live: liveSection,
  metrics: metricsSection,
  answers: answersSection,
};

/** A section reads some environment variables (by name) and gives their parsed value. */
export type ConfigSection = z.ZodType;
type CoreSections = typeof CORE_SECTIONS;
export type ParsedConfig<F extends Record<string, ConfigSection>> = { [K in keyof CoreSections]: z.output<CoreSections[K]> } & {
  [K in keyof F]: z.output<F[K]>;
};

/** The core settings as route modules read them: every core section in one flat object. */
export type Config = z.output<typeof serverSection> &
  z.output<typeof databaseSection> &
  z.output<typeof authSection> &
  z.output<typeof mailSection> &
  z.output<typeof uploadsSection> &
  z.output<typeof liveSection> &
  z.output<typeof metricsSection> &
  z.output<typeof answersSection> & { SECRET_KEY: string; FRONTEND_HOST: string };

/**
 * A rule across settings, checked once the sections it `reads` parsed (so it never reports a
 * consequence of a problem already listed); a rule reading no section looks at the variables as set.
 * Reports each problem against a section and variable.
 */
export interface ConfigRule<F extends Record<string, ConfigSection>> {
  reads: (keyof CoreSections | keyof F)[];
  check(
    config: ParsedConfig<F>,
    problem: (section: string, variable: string, message: string) => void,
    env: Readonly<Record<string, string | undefined>>,
  ): void;
}

const productionNeedsSecret: ConfigRule<Record<never, ConfigSection>> = {
  reads: ['server', 'auth'],
  check(c, problem) {
    if (c.server.NODE_ENV === 'production' && !c.auth.SECRET_KEY)
      problem('auth', 'SECRET_KEY', 'SECRET_KEY is required when NODE_ENV=production');
  },
};

/** The whole schema's sections: the core ones plus the given feature sections. */
export function allSections<F extends Record<string, ConfigSection>>(features: F): CoreSections & F {
  for (const name of Object.keys(features)) if (name in CORE_SECTIONS) throw new Error(`config section "${name}" is a core section`);
  return { ...CORE_SECTIONS, ...features };
}

/** The variable names a section reads (its object's keys, under any transform). */
export function settingNames(section: ConfigSection): string[] {
  const def = (section as unknown as { def: { type: string; in?: ConfigSection; shape?: Record<string, unknown> } }).def;
  if (def.type === 'pipe' && def.in) return settingNames(def.in);
  return Object.keys(def.shape ?? {});
}

/** Every variable the whole schema (core sections plus `features`) reads. */
export function allSettingNames<F extends Record<string, ConfigSection>>(features: F): string[] {
  return Object.values(allSections(features)).flatMap((section) => settingNames(section));
}

/**
 * Parses the environment against the whole schema (the core sections plus `features`), then checks
 * the rules across sections: the core ones and a process's own `rules` (e.g. an extra worker needs
 * DATABASE_URL). Throws one ConfigError listing every problem. An empty variable counts as unset,
 * as in .env files where `KEY=` is left blank.
 */
export function parseConfig<F extends Record<string, ConfigSection>>(
  features: F,
  env: NodeJS.ProcessEnv = process.env,
  rules: ConfigRule<F>[] = [],
): ParsedConfig<F> {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const problems: string[] = [];
  const problem = (section: string, variable: string, message: string) => problems.push(`  - ${variable}: ${message} [${section}]`);
  const parsed: Record<string, unknown> = {};
  for (const [name, section] of Object.entries(allSections(features))) {
    const result = section.safeParse(set);
    if (result.success) parsed[name] = result.data;
    else for (const issue of result.error.issues) problem(name, issue.path.join('.') || '(env)', issue.message);
  }
  for (const rule of [productionNeedsSecret as ConfigRule<F>, ...rules]) {
    if (rule.reads.every((name) => name in parsed)) rule.check(parsed as ParsedConfig<F>, problem, set);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return parsed as ParsedConfig<F>;
}

/**
 * The core settings of the API process. Outside production a missing SECRET_KEY is generated once
 * and kept under DATA_DIR, so tokens survive restarts of the embedded default without anyone
 * choosing a secret (production requires one: see productionNeedsSecret).
 */
export function coreConfig(parsed: ParsedConfig<Record<never, ConfigSection>>): Config {
  const { server, database, auth, mail, uploads, live, metrics, answers } = parsed;
  const flat = { ...server, ...database, ...auth, ...mail, ...uploads, ...live, ...metrics, ...answers };
  return {
    ...flat,
    SECRET_KEY: auth.SECRET_KEY ?? generatedSecretKey(database.DATA_DIR),
    FRONTEND_HOST: server.FRONTEND_HOST ?? `http://localhost:${server.PORT}`,
  };
}

/** Parses the core sections only and resolves them: for the API in tests and scripts. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return coreConfig(parseConfig({}, env));
}

function generatedSecretKey(dataDir: string): string {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
