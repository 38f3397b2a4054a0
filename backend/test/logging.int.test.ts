// Logs never carry secrets: request lines name the method and path only (query strings can carry
// tokens or password hashes), and database errors leave out the values their statement was given.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createLogger } from '../src/core/logging.ts';
import { productRoutes } from '../src/routes.ts';
import { users } from '../src/db/schema.ts';
import { ADMIN, startTestApp, type TestApp } from './helpers/app.ts';

/** A logger writing into `lines`, as the API and the worker log. */
function capturedLogger(lines: string[]) {
  const stream = new Writable({
    write: (chunk, _enc, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  return createLogger({ level: 'info', destination: stream });
}

describe('request logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    app = await buildApp(t.ctx, { logger: capturedLogger(lines), routes: productRoutes });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('never contain the query string', async () => {
    await app.inject({ method: 'GET', url: '/api/v1/utils/health-check/?token=eyJsecret.token&hash=$argon2id$v=19$abc' });
    await app.inject({ method: 'POST', url: '/api/v1/reset-password/?token=eyJother', payload: { token: 'x', new_password: 'y' } });
    const log = lines.join('');
    expect(log).toContain('/api/v1/utils/health-check/');
    expect(log).not.toMatch(/eyJ|argon2id|token=/);
  });
});

describe('database error logs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  it("never contain the statement's parameter values, only the statement and what went wrong", async () => {
    const hash = '$argon2id$v=19$m=65536,t=3,p=4$c2VjcmV0LXNhbHQ';
    // A real failure: the first superuser's email is taken, so the insert breaks the unique index.
    const err = await t.ctx.db
      .insert(users)
      .values({ email: ADMIN.email, hashed_password: hash, full_name: 'Line one\nline two' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toContain(ADMIN.email); // what the log would have said without redaction

    const lines: string[] = [];
    capturedLogger(lines).error({ err }, 'writing results failed');
    const entry = JSON.parse(lines.join('')).err;
    const log = JSON.stringify(entry);
    expect(log).not.toContain(ADMIN.email);
    expect(log).not.toContain('argon2id');
    expect(log).not.toContain('line two');
    expect(entry).toMatchObject({ type: 'DrizzleQueryError', params: '[redacted]' });
    expect(entry.message).toMatch(
      /^Failed query: insert into "users" .*\nparams: \[redacted\]: duplicate key value violates unique constraint/s,
    );
    expect(entry.stack).toContain('caused by: ');
  });

  it("leave out a server error's detail line, which quotes row values", () => {
    const serverError = Object.assign(new Error('duplicate key value violates unique constraint "ix_users_email"'), {
      severity: 'ERROR',
      code: '23505',
      detail: `Key (email)=(${ADMIN.email}) already exists.`,
    });
    const lines: string[] = [];
    capturedLogger(lines).error({ err: serverError }, 'unhandled error');
    const entry = JSON.parse(lines.join('')).err;
    expect(entry).toMatchObject({ code: '23505', detail: '[redacted]', message: serverError.message });
  });
});
