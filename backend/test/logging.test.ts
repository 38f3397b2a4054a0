// Request logs name the method and path only: query strings can carry tokens or password hashes.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createLogger } from '../src/core/logging.ts';
import { productRoutes } from '../src/routes.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

describe('request logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    const stream = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp(t.ctx, { logger: createLogger({ level: 'info', destination: stream }), routes: productRoutes });
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
