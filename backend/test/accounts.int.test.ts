// Login, users and items through the HTTP API, on one engine (ONE_ENGINE).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ADMIN, bearer, changeOwnPassword, createUser, login, postLoginForm, testAppPerSuite } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';
import { RECOVERY_MESSAGE } from '../src/auth/routes.ts';
import { must } from '@app/domain/must';
import { userByEmail } from '../src/users/repository.ts';

// Engine-neutral (ONE_ENGINE says why): the same statements through the query builder on both engines.
describe.each(ONE_ENGINE)('accounts on %s', (engine) => {
  const t = testAppPerSuite(engine);
  const signUp = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/v1/users/signup', payload });
  const resetPassword = (token: string, new_password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/reset-password/', payload: { token, new_password } });
  const updateProfile = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: '/api/v1/users/me', headers: bearer(token), payload });
  const recoveryEmailHtml = (token: string, email: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/password-recovery-html-content/${email}`, headers: bearer(token) });
  const updateUser = (adminToken: string, id: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/api/v1/users/${id}`, headers: bearer(adminToken), payload });

  describe('login', () => {
    it('issues a token for the right password and checks it', async () => {
      const token = await login(t.app, ADMIN.email, ADMIN.password);
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/login/test-token', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: ADMIN.email, is_superuser: true, is_active: true });
      expect(res.json()).not.toHaveProperty('hashed_password');
    });

    it('accepts the email in any case', async () => {
      await expect(login(t.app, ADMIN.email.toUpperCase(), ADMIN.password)).resolves.toBeTruthy();
    });

    it('answers the same for a wrong password and an unknown email', async () => {
      const wrong = await postLoginForm(t.app, { username: ADMIN.email, password: 'nope-nope-nope' });
      const unknown = await postLoginForm(t.app, { username: 'ghost@example.com', password: 'nope-nope-nope' });
      expect(wrong.statusCode).toBe(400);
      expect(unknown.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ detail: 'Incorrect email or password' });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('names the missing field in a 422', async () => {
      const res = await postLoginForm(t.app, { username: ADMIN.email });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'password']);
    });

    it('refuses an inactive user', async () => {
      await createUser(t, 'sleepy@example.com', 'sleepy-password', { is_active: false });
      const res = await postLoginForm(t.app, { username: 'sleepy@example.com', password: 'sleepy-password' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'Inactive user' });
    });

    it('throttles repeated failures per account with Retry-After', async () => {
      const email = 'target@example.com';
      await createUser(t, email, 'target-password');
      const attempt = (password: string) =>
        postLoginForm(
          t.app,
          { username: email, password },
          // Its own address: the suite's other failures from the default one would count against it.
          { from: '10.0.0.77', headers: { 'x-forwarded-for': `10.0.0.${Math.floor(Math.random() * 250)}` } },
        );
      for (let i = 0; i < t.ctx.config.LOGIN_MAX_ATTEMPTS; i++) expect((await attempt('wrong-password')).statusCode).toBe(400);
      const blocked = await attempt('target-password');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ detail: 'Too many login attempts. Please wait a moment and try again.' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('tokens', () => {
    it('401 without a token, 403 with a bad one', async () => {
      const none = await t.app.inject({ method: 'GET', url: '/api/v1/users/me' });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ detail: 'Not authenticated' });
      const bad = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer('not-a-token') });
      expect(bad.statusCode).toBe(403);
      expect(bad.json()).toEqual({ detail: 'Could not validate credentials' });
    });

    it('a token of a deleted user stops working', async () => {
      const { id, token, adminToken } = await createUser(t, 'gone@example.com');
      await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${id}`, headers: bearer(adminToken) });
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('sign-up and self-service', () => {
    it('signs up, rejects a duplicate email in another case, and validates fields', async () => {
      const ok = await signUp({ email: 'New.Person@example.com', password: 'password123', full_name: 'New Person' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ email: 'New.Person@example.com', is_superuser: false, is_active: true });
      const dup = await signUp({ email: 'new.person@EXAMPLE.com', password: 'password123' });
      expect(dup.statusCode).toBe(400);
      expect(dup.json()).toEqual({ detail: 'The user with this email already exists in the system' });
      const short = await signUp({ email: 'x@example.com', password: 'short' });
      expect(short.statusCode).toBe(422);
      expect(short.json().detail[0]).toMatchObject({ loc: ['body', 'password'], msg: 'Password must be at least 8 characters' });
      const badEmail = await signUp({ email: 'not-an-email', password: 'password123' });
      expect(badEmail.json().detail[0]).toMatchObject({ loc: ['body', 'email'], msg: 'Invalid email address' });
      const tooLong = await signUp({ email: 'y@example.com', password: 'p'.repeat(129) });
      expect(tooLong.statusCode).toBe(422);
    });

    it('updates the profile, refusing an email someone else has', async () => {
      const { token } = await createUser(t, 'profile@example.com');
      const res = await updateProfile(token, { full_name: 'Pro File', email: 'profile2@example.com' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ full_name: 'Pro File', email: 'profile2@example.com' });
      const taken = await updateProfile(token, { email: ADMIN.email.toUpperCase() });
      expect(taken.statusCode).toBe(409);
    });

    it('changes the password only with the current one', async () => {
      const { token } = await createUser(t, 'pw@example.com', 'first-password');
      const wrong = await changeOwnPassword(t.app, token, 'nope-nope', 'second-password');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ detail: 'Incorrect password' });
      const same = await changeOwnPassword(t.app, token, 'first-password', 'first-password');
      expect(same.statusCode).toBe(400);
      const ok = await changeOwnPassword(t.app, token, 'first-password', 'second-password');
      expect(ok.json()).toMatchObject({ message: 'Password updated successfully', token_type: 'bearer' });
      await expect(login(t.app, 'pw@example.com', 'second-password')).resolves.toBeTruthy();
    });

    it('deletes the own account with its items; a superuser cannot', async () => {
      const { id, token } = await createUser(t, 'leaver@example.com');
      await t.app.inject({ method: 'POST', url: '/api/v1/items/', headers: bearer(token), payload: { title: 'mine' } });
      const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/users/me', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      const { rows } = await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM items WHERE owner_id = ${id}`);
      expect(rows[0]).toEqual({ n: 0 });
      const adminToken = await login(t.app, ADMIN.email, ADMIN.password);
      const su = await t.app.inject({ method: 'DELETE', url: '/api/v1/users/me', headers: bearer(adminToken) });
      expect(su.statusCode).toBe(403);
      expect(su.json()).toEqual({ detail: 'Super users are not allowed to delete themselves' });
    });
  });

  describe('password recovery', () => {
    it('answers the same for known and unknown emails and mails only the known one', async () => {
      await createUser(t, 'forgetful@example.com', 'old-password');
      const before = t.sent.length;
      const known = await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/forgetful@example.com' });
      const unknown = await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/nobody@example.com' });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(known.json()).toEqual({ message: RECOVERY_MESSAGE });
      expect(unknown.json()).toEqual(known.json());
      await new Promise((r) => setTimeout(r, 200));
      const mails = t.sent.slice(before);
      expect(mails.map((m) => m.to)).toEqual(['forgetful@example.com']);
      const link = mails[0]?.text.match(/http:\/\/localhost:5173\/reset-password\?token=(\S+)/);
      expect(link).not.toBeNull();
      expect(mails[0]?.html).toContain('/reset-password?token=');

      const token = decodeURIComponent(must(link?.[1], 'a reset link in the mail'));
      const reset = await resetPassword(token, 'brand-new-password');
      expect(reset.json()).toEqual({ message: 'Password updated successfully' });
      await expect(login(t.app, 'forgetful@example.com', 'brand-new-password')).resolves.toBeTruthy();
      const again = await resetPassword(token, 'another-password');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ detail: 'Invalid token' });
    });

    it('rejects a forged, an access and an expired token', async () => {
      const access = await login(t.app, ADMIN.email, ADMIN.password);
      for (const token of ['garbage', access]) {
        const res = await resetPassword(token, 'whatever-123');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ detail: 'Invalid token' });
      }
      const { TokenService } = await import('../src/core/security/tokens.ts');
      const expiredIssuer = new TokenService(t.ctx.config.SECRET_KEY, 60, -1);
      const user = (await userByEmail(t.ctx.db, ADMIN.email))!;
      const expired = await expiredIssuer.createResetToken(ADMIN.email, user.password_changed_at);
      const res = await resetPassword(expired, 'whatever-123');
      expect(res.statusCode).toBe(400);
    });

    it('shows the email HTML to superusers only', async () => {
      const { token } = await createUser(t, 'curious@example.com');
      const denied = await recoveryEmailHtml(token, 'curious@example.com');
      expect(denied.statusCode).toBe(403);
      const adminToken = await login(t.app, ADMIN.email, ADMIN.password);
      const ok = await recoveryEmailHtml(adminToken, 'curious@example.com');
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toContain('text/html');
      expect(ok.body).toContain('/reset-password?token=');
    });
  });

  describe('users management', () => {
    it('lists users paged with a total count', async () => {
      const adminToken = await login(t.app, ADMIN.email, ADMIN.password);
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/?skip=0&limit=2', headers: bearer(adminToken) });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toHaveLength(2);
      expect(res.json().count).toBeGreaterThan(2);
      const bad = await t.app.inject({ method: 'GET', url: '/api/v1/users/?limit=-1', headers: bearer(adminToken) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['query', 'limit']);
    });

    it('creates, updates (empty password omitted) and deletes a user with their items', async () => {
      const { id, token, adminToken } = await createUser(t, 'managed@example.com');
      await t.app.inject({ method: 'POST', url: '/api/v1/items/', headers: bearer(token), payload: { title: 'theirs' } });
      const upd = await updateUser(adminToken, id, { full_name: 'Managed', is_superuser: true });
      expect(upd.json()).toMatchObject({ full_name: 'Managed', is_superuser: true });
      await expect(login(t.app, 'managed@example.com', 'user-password-1')).resolves.toBeTruthy();
      const pw = await updateUser(adminToken, id, { password: 'reset-by-admin' });
      expect(pw.statusCode).toBe(200);
      await expect(login(t.app, 'managed@example.com', 'reset-by-admin')).resolves.toBeTruthy();
      const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${id}`, headers: bearer(adminToken) });
      expect(del.json()).toEqual({ message: 'User deleted successfully' });
      const { rows } = await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM items WHERE owner_id = ${id}`);
      expect(rows[0]).toEqual({ n: 0 });
      const again = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${id}`, headers: bearer(adminToken) });
      expect(again.statusCode).toBe(404);
    });

    it('refuses duplicate emails and self-deletion', async () => {
      const adminToken = await login(t.app, ADMIN.email, ADMIN.password);
      const dup = await t.app.inject({
        method: 'POST',
        url: '/api/v1/users/',
        headers: bearer(adminToken),
        payload: { email: 'ADMIN@example.com', password: 'password123' },
      });
      expect(dup.statusCode).toBe(400);
      expect(dup.json()).toEqual({ detail: 'The user with this email already exists in the system.' });
      const me = (await userByEmail(t.ctx.db, ADMIN.email))!;
      const self = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${me.id}`, headers: bearer(adminToken) });
      expect(self.statusCode).toBe(403);
      const badId = await t.app.inject({ method: 'GET', url: '/api/v1/users/not-a-uuid', headers: bearer(adminToken) });
      expect(badId.statusCode).toBe(422);
      expect(badId.json().detail[0].loc).toEqual(['path', 'user_id']);
    });
  });

  describe('items', () => {
    it('creates, reads, updates with PUT, pages and deletes own items', async () => {
      const { token } = await createUser(t, 'itemizer@example.com');
      const ids: string[] = [];
      for (const title of ['a', 'b', 'c']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/items/',
          headers: bearer(token),
          payload: { title, description: `about ${title}` },
        });
        expect(res.statusCode).toBe(200);
        ids.push(res.json().id);
      }
      const page = await t.app.inject({ method: 'GET', url: '/api/v1/items/?skip=1&limit=1', headers: bearer(token) });
      expect(page.json().count).toBe(3);
      expect(page.json().data).toHaveLength(1);
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/items/${ids[0]}`,
        headers: bearer(token),
        payload: { title: 'renamed', description: null },
      });
      expect(put.json()).toMatchObject({ title: 'renamed', description: null });
      const empty = await t.app.inject({ method: 'POST', url: '/api/v1/items/', headers: bearer(token), payload: { title: '  ' } });
      expect(empty.statusCode).toBe(422);
      expect(empty.json().detail[0]).toMatchObject({ loc: ['body', 'title'], msg: 'Title is required' });
      const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/items/${ids[1]}`, headers: bearer(token) });
      expect(del.json()).toEqual({ message: 'Item deleted successfully' });
      const gone = await t.app.inject({ method: 'GET', url: `/api/v1/items/${ids[1]}`, headers: bearer(token) });
      expect(gone.statusCode).toBe(404);
    });
  });

  it('never answers a malformed body with a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('detail');
    expect(res.body).not.toContain('at ');
  });

  it('serves the OpenAPI document and a health check', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(doc.json().paths).toHaveProperty('/api/v1/login/access-token');
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/utils/health-check/' });
    expect(health.json()).toBe(true);
  });
});
