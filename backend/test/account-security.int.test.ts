// Accounts under attack, on both databases: throttled guessing that never locks the owner out,
// counted atomically and shared by API processes; sessions that end with the password; single-use
// reset links; tokens without expiry; recovery-email limits; superusers who cannot demote themselves.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  bearer,
  changeOwnPassword,
  createUser,
  login,
  postLoginForm,
  secondApiProcess,
  startTestApp,
  testAppPerSuite,
  type TestApp,
} from './helpers/app.ts';
import { ENGINES, onOneEngine } from './helpers/databases.ts';
import { userByEmail } from '../src/users/repository.ts';

describe.each(ENGINES)('account security on %s', (engine) => {
  const t = testAppPerSuite(engine);

  const loginFrom = (app: TestApp['app'], address: string, username: string, password: string, headers: Record<string, string> = {}) =>
    postLoginForm(app, { username, password }, { from: address, headers });

  it('parallel wrong logins cannot get past the limit, whatever X-Forwarded-For says', async () => {
    const email = 'parallel@example.com';
    await createUser(t, email, 'parallel-password');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => loginFrom(t.app, '10.1.0.1', email, 'wrong-password', { 'x-forwarded-for': `203.0.113.${i}` })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 400)).toHaveLength(t.ctx.config.LOGIN_MAX_ATTEMPTS);
    expect(codes.filter((c) => c === 429)).toHaveLength(25 - t.ctx.config.LOGIN_MAX_ATTEMPTS);
  });

  it('a guesser slows only themself: the owner logs in from elsewhere, and the guesser waits longer each time', async () => {
    const email = 'owner@example.com';
    await createUser(t, email, 'owner-password');
    for (let i = 0; i < t.ctx.config.LOGIN_MAX_ATTEMPTS; i++)
      expect((await loginFrom(t.app, '10.2.0.66', email, 'guess')).statusCode).toBe(400);
    const blocked = await loginFrom(t.app, '10.2.0.66', email, 'owner-password');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, elsewhere, is not locked out.
    expect((await loginFrom(t.app, '10.2.0.1', email, 'owner-password')).statusCode).toBe(200);
    // After the wait the guesser gets one more try, then a longer wait (1 s, then 2 s).
    await new Promise((r) => setTimeout(r, 1100));
    expect((await loginFrom(t.app, '10.2.0.66', email, 'guess')).statusCode).toBe(400);
    const longer = await loginFrom(t.app, '10.2.0.66', email, 'guess');
    expect(longer.statusCode).toBe(429);
    expect(Number(longer.headers['retry-after'])).toBe(2);
  });

  it('successful logins from a shared office address do not count against it', async () => {
    const office = await startTestApp(engine, { env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '3' } });
    try {
      await createUser(office, 'staff@example.com', 'staff-password');
      for (let i = 0; i < 6; i++)
        expect((await loginFrom(office.app, '10.5.0.1', 'staff@example.com', 'staff-password')).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) expect((await loginFrom(office.app, '10.5.0.1', `nobody${i}@example.com`, 'guess')).statusCode).toBe(400);
      expect((await loginFrom(office.app, '10.5.0.1', 'staff@example.com', 'staff-password')).statusCode).toBe(429);
    } finally {
      await office.close();
    }
  });

  it('two API processes on one database share the counts', async () => {
    const email = 'shared@example.com';
    await createUser(t, email, 'shared-password');
    const other = await secondApiProcess(t);
    try {
      for (let i = 0; i < t.ctx.config.LOGIN_MAX_ATTEMPTS; i++)
        expect((await loginFrom(t.app, '10.3.0.5', email, 'guess')).statusCode).toBe(400);
      expect((await loginFrom(other, '10.3.0.5', email, 'shared-password')).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });

  // Which address a request comes from is Fastify's reading of the connection and its headers (the
  // counting itself is the tests' above, on both engines): the HTTP layer alone, on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    it('X-Forwarded-For picks the address only when TRUST_PROXY says so', async () => {
      const proxied = await startTestApp(engine, { env: { TRUST_PROXY: 'true' } });
      try {
        const email = 'proxied@example.com';
        await createUser(proxied, email, 'proxied-password');
        for (let i = 0; i < proxied.ctx.config.LOGIN_MAX_ATTEMPTS; i++) {
          expect((await loginFrom(proxied.app, '10.9.9.9', email, 'guess', { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(400);
        }
        expect(
          (await loginFrom(proxied.app, '10.9.9.9', email, 'proxied-password', { 'x-forwarded-for': '198.51.100.7' })).statusCode,
        ).toBe(429);
        // Same proxy, another client behind it: a different address, not blocked.
        expect(
          (await loginFrom(proxied.app, '10.9.9.9', email, 'proxied-password', { 'x-forwarded-for': '198.51.100.8' })).statusCode,
        ).toBe(200);
      } finally {
        await proxied.close();
      }
    }),
  );

  it('changing the password ends older sessions and hands this one a fresh token', async () => {
    const { token } = await createUser(t, 'sessions@example.com', 'first-password');
    const otherDevice = await login(t.app, 'sessions@example.com', 'first-password');
    const res = await changeOwnPassword(t.app, token, 'first-password', 'second-password');
    expect(res.statusCode).toBe(200);
    const { access_token, message } = res.json();
    expect(message).toBe('Password updated successfully');
    for (const old of [token, otherDevice]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(old) })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(access_token) })).statusCode).toBe(200);
  });

  it('an admin setting a password ends that user’s sessions', async () => {
    const { id, token, adminToken } = await createUser(t, 'managed-sessions@example.com');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${id}`,
      headers: bearer(adminToken),
      payload: { password: 'set-by-admin-1' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) })).statusCode).toBe(403);
  });

  it('a reset link used by 5 parallel requests works exactly once', async () => {
    const email = 'reset-race@example.com';
    await createUser(t, email, 'before-reset');
    const user = (await userByEmail(t.ctx.db, email))!;
    const token = await t.ctx.tokens.createResetToken(email, user.password_changed_at);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/v1/reset-password/', payload: { token, new_password: `after-reset-${i}` } }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400, 400]);
    const winner = answers.findIndex((a) => a.statusCode === 200);
    await expect(login(t.app, email, `after-reset-${winner}`)).resolves.toBeTruthy();
  });

  it('a token without an expiry is refused, even correctly signed', async () => {
    const admin = (await userByEmail(t.ctx.db, ADMIN.email))!;
    const forever = await new SignJWT({ typ: 'access', pwd: admin.password_changed_at.getTime() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(admin.id)
      .setIssuedAt()
      .sign(new TextEncoder().encode(t.ctx.config.SECRET_KEY));
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(forever) })).statusCode).toBe(403);
  });

  it('recovery emails are limited per address, with the same answer every time', async () => {
    const email = 'recover-me@example.com';
    await createUser(t, email);
    const before = t.sent.filter((m) => m.to === email).length;
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(await t.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${email}`, remoteAddress: `10.4.0.${i}` }));
    expect(new Set(answers.map((a) => `${a.statusCode} ${a.body}`)).size).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.sent.filter((m) => m.to === email).length - before).toBe(t.ctx.config.RECOVERY_EMAILS_PER_ADDRESS);
  });

  it('a superuser cannot demote or deactivate themself', async () => {
    const adminToken = await login(t.app, ADMIN.email, ADMIN.password);
    const me = (await userByEmail(t.ctx.db, ADMIN.email))!;
    for (const payload of [{ is_superuser: false }, { is_active: false }]) {
      const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${me.id}`, headers: bearer(adminToken), payload });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toMatch(/not allowed to remove their own superuser rights/);
    }
    const still = (await userByEmail(t.ctx.db, ADMIN.email))!;
    expect([still.is_superuser, still.is_active]).toEqual([true, true]);
  });
});
