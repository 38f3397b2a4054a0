// Sessions end on the server (issue 20): signing out ends that token alone, signing out everywhere
// ends every token of the user, and a deactivated user's tokens stay dead after reactivation.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';

// Engine-neutral (ONE_ENGINE says why): the same statements through the query builder on both engines.
describe.each(ONE_ENGINE)('ending sessions on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) }).then((r) => r.statusCode);
  const post = (url: string, token?: string) => t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {} });

  it("signing out ends this token on the server; the same user's other sessions go on", async () => {
    const user = await createUser(t, 'signout@example.com', 'user-password-1');
    const otherTab = await login(t.app, 'signout@example.com', 'user-password-1');
    const res = await post('/api/v1/login/sign-out', user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Signed out' });
    expect(await me(user.token)).toBe(403);
    expect((await post('/api/v1/login/sign-out', user.token)).statusCode).toBe(403);
    expect(await me(otherTab)).toBe(200);
  });

  it('signing out everywhere ends every token of the user, and only theirs; a new login works', async () => {
    const user = await createUser(t, 'everywhere@example.com', 'user-password-1');
    const laptop = await login(t.app, 'everywhere@example.com', 'user-password-1');
    const bystander = await createUser(t, 'bystander@example.com');
    const res = await post('/api/v1/login/sign-out-everywhere', user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Signed out everywhere' });
    expect(await me(user.token)).toBe(403);
    expect(await me(laptop)).toBe(403);
    expect(await me(bystander.token)).toBe(200);
    expect(await me(admin)).toBe(200);
    expect(await me(await login(t.app, 'everywhere@example.com', 'user-password-1'))).toBe(200);
  });

  it("a deactivated user's old tokens stay dead after reactivation", async () => {
    const user = await createUser(t, 'reactivated@example.com', 'user-password-1');
    const patch = (is_active: boolean) =>
      t.app.inject({ method: 'PATCH', url: `/api/v1/users/${user.id}`, headers: bearer(admin), payload: { is_active } });
    expect((await patch(false)).statusCode).toBe(200);
    expect((await patch(true)).statusCode).toBe(200);
    expect(await me(user.token)).toBe(403);
    expect(await me(await login(t.app, 'reactivated@example.com', 'user-password-1'))).toBe(200);
  });

  it('needs a token: anonymous callers get 401; a superuser signs out their own session only', async () => {
    expect((await post('/api/v1/login/sign-out')).statusCode).toBe(401);
    expect((await post('/api/v1/login/sign-out-everywhere')).statusCode).toBe(401);
    const suSession = await login(t.app, ADMIN.email, ADMIN.password);
    expect((await post('/api/v1/login/sign-out', suSession)).statusCode).toBe(200);
    expect(await me(suSession)).toBe(403);
    expect(await me(admin)).toBe(200);
  });

  it('remembers a signed-out token only until it would have expired', async () => {
    await t.ctx.db.execute(sql`INSERT INTO revoked_tokens (jti, expires_at) VALUES ('long-gone', now() - interval '1 minute')`);
    const user = await createUser(t, 'prune@example.com');
    expect((await post('/api/v1/login/sign-out', user.token)).statusCode).toBe(200);
    const { rows } = await t.ctx.db.execute<{ jti: string }>(sql`SELECT jti FROM revoked_tokens`);
    expect(rows.map((r) => r.jti)).not.toContain('long-gone');
    expect(rows.length).toBeGreaterThan(0);
  });
});
