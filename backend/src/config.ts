// One schema over the environment, parsed once at start. Every problem is listed at once.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.string().url().optional().or(z.literal('').transform(() => undefined));

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8000),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: optionalUrl,
    SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters').optional(),
    ACCESS_TOKEN_EXPIRE_MINUTES: z.coerce.number().int().positive().default(60 * 24 * 8),
    FRONTEND_HOST: z.string().url().optional(),
    PROJECT_NAME: z.string().default('Price Lookup Dashboard'),
    FIRST_SUPERUSER: z.string().email().default('admin@example.com'),
    FIRST_SUPERUSER_PASSWORD: z.string().min(8).max(128).optional(),
    EMAIL_RESET_TOKEN_EXPIRE_HOURS: z.coerce.number().positive().default(48),
    SMTP_HOST: z.string().optional(),
    SMTP_PORT: z.coerce.number().int().positive().default(587),
    SMTP_USER: z.string().optional(),
    SMTP_PASSWORD: z.string().optional(),
    SMTP_TLS: bool.default(true),
    SMTP_SSL: bool.default(false),
    EMAILS_FROM_EMAIL: z.string().email().default('noreply@example.com'),
    EMAILS_FROM_NAME: z.string().optional(),
    LOGIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(10),
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().positive().default(100),
    LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(300),
    LOGIN_MAX_DELAY_SECONDS: z.coerce.number().int().positive().default(900),
    RECOVERY_EMAILS_PER_ADDRESS: z.coerce.number().int().positive().default(3),
    RECOVERY_EMAILS_PER_CLIENT: z.coerce.number().int().positive().default(20),
    RECOVERY_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
    // Behind a reverse proxy: 'true' (trust X-Forwarded-For entirely), a hop count, or the proxies'
    // addresses. Off by default: a client-sent X-Forwarded-For must not pick the address we throttle.
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' || v === '' ? false : /^\d+$/.test(v) ? Number(v) : v)),
    UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(20 * 1024 * 1024),
    UPLOAD_MAX_ROWS: z.coerce.number().int().positive().default(200_000),
    UPLOAD_MAX_ISBNS: z.coerce.number().int().positive().default(150_000),
    UPLOAD_MAX_UNCOMPRESSED_BYTES: z.coerce.number().int().positive().default(200 * 1024 * 1024),
    UPLOAD_PARSE_MAX_MEMORY_MB: z.coerce.number().int().min(64).default(2048),
    UPLOAD_MAX_CONCURRENT_PARSES: z.coerce.number().int().positive().default(2),
    UPLOAD_PARSE_QUEUE_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
    DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
    EXPORT_MAX_CONCURRENT: z.coerce.number().int().positive().default(4),
    EXPORT_STALL_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
    RUN_WORKER: bool.default(true),
    RUN_SANDBOX: z.enum(['auto', 'true', 'false']).default('auto'),
    SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    SERVE_FRONTEND: bool.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['SECRET_KEY'], message: 'SECRET_KEY is required when NODE_ENV=production' });
    }
  });

export type Env = z.infer<typeof envSchema>;
export type Config = Env & { SECRET_KEY: string; FRONTEND_HOST: string };

export class ConfigError extends Error {}

/** Parses the environment; throws one error that lists every problem. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/**
 * Outside production a missing SECRET_KEY is generated once and kept under DATA_DIR,
 * so tokens survive restarts of the embedded default without anyone choosing a secret.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const env = parseEnv(source);
  let secret = env.SECRET_KEY;
  if (!secret) {
    mkdirSync(env.DATA_DIR, { recursive: true });
    const file = path.join(env.DATA_DIR, 'secret_key');
    if (existsSync(file)) secret = readFileSync(file, 'utf8').trim();
    else {
      secret = randomBytes(48).toString('base64url');
      writeFileSync(file, secret, { mode: 0o600 });
    }
  }
  return { ...env, SECRET_KEY: secret, FRONTEND_HOST: env.FRONTEND_HOST ?? `http://localhost:${env.PORT}` };
}
