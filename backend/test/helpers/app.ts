// A full app on a test database, driven through fastify.inject.
import { afterAll, beforeAll } from 'vitest';
import { loadConfig, type Config } from '../../src/core/config.ts';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/core/create-context.ts';
import type { App, AppContext } from '../../src/core/context.ts';
import { createLogger } from '../../src/core/logging.ts';
import type { OutgoingEmail } from '../../src/core/mailer.ts';
import { createUser as insertUser } from '../../src/users/repository.ts';
import { productRoutes } from '../../src/routes.ts';
import { openTestDatabase, type Engine } from './databases.ts';

export const silentLogger = createLogger({ level: 'silent' });

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

export interface TestApp {
  app: App;
  ctx: AppContext;
  sent: OutgoingEmail[];
  /** postgres://… of the app's database; undefined on PGlite. */
  url?: string;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    FRONTEND_HOST: 'http://localhost:5173',
    DATA_DIR: '/tmp/unused-test-data-dir',
    FIRST_SUPERUSER: ADMIN.email,
    FIRST_SUPERUSER_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}

export async function startTestApp(engine: Engine, opts: { env?: Record<string, string>; captureMail?: boolean } = {}): Promise<TestApp> {
  const config = testConfig(opts.env);
  const { database, url, cleanup } = await openTestDatabase(engine, { exportPoolSize: config.EXPORT_MAX_CONCURRENT });
  const sent: OutgoingEmail[] = [];
  const mailer = opts.captureMail === false ? undefined : { send: async (m: OutgoingEmail) => void sent.push(m), describe: () => 'memory' };
  const ctx = await createContext(config, { database, mailer, log: silentLogger });
  await insertUser(ctx.db, { email: ADMIN.email, password: ADMIN.password, full_name: 'Admin', is_superuser: true });
  const app = await buildApp(ctx, { routes: productRoutes });
  await app.ready();
  return {
    app,
    ctx,
    sent,
    url,
    close: async () => {
      await app.close();
      await ctx.closeDatabase();
      await cleanup();
    },
  };
}

/** Starts an app on `engine` before the suite's tests and closes it after them; the returned object is the app once started. */
export function testAppPerSuite(engine: Engine): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await startTestApp(engine));
  });
  afterAll(() => t.close());
  return t;
}

/** POSTs the login form as the browser does; `from` is the client's address, `headers` e.g. X-Forwarded-For. */
export function postLoginForm(app: App, fields: Record<string, string>, opts: { from?: string; headers?: Record<string, string> } = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/login/access-token',
    ...(opts.from === undefined ? {} : { remoteAddress: opts.from }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** Changes the password of the token's owner (the Password settings tab). */
export const changeOwnPassword = (app: App, token: string, current_password: string, new_password: string) =>
  app.inject({ method: 'PATCH', url: '/api/v1/users/me/password', headers: bearer(token), payload: { current_password, new_password } });

export async function login(app: App, email: string, password: string): Promise<string> {
  const res = await postLoginForm(app, { username: email, password });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().access_token;
}

/**
 * Another API process over the same database as `t` (its own limiters and memory, the same rows):
 * what two replicas behind a load balancer share. Close it when done; the database stays `t`'s.
 */
export async function secondApiProcess(t: TestApp): Promise<App> {
  const database = {
    db: t.ctx.db,
    poolUse: t.ctx.poolUse,
    exporter: t.ctx.exporter,
    bulk: t.ctx.bulk,
    listen: t.ctx.listen,
    close: async () => {},
  };
  return buildApp(await createContext(t.ctx.config, { database, mailer: t.ctx.mailer, log: silentLogger }), { routes: productRoutes });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Creates a user through the API as the admin and returns its id and a token. */
export async function createUser(t: TestApp, email: string, password = 'user-password-1', extra: Record<string, unknown> = {}) {
  const adminToken = await login(t.app, ADMIN.email, ADMIN.password);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/users/',
    headers: bearer(adminToken),
    payload: { email, password, full_name: email.split('@')[0], ...extra },
  });
  if (res.statusCode !== 200) throw new Error(`create user failed: ${res.body}`);
  const id = res.json().id as string;
  const token = extra.is_active === false ? '' : await login(t.app, email, password);
  return { id, token, adminToken };
}
