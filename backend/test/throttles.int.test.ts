// Password checks and sign-ups are throttled like login (issue 20): wrong current passwords on the
// change-password form slow down per account, before any hash is checked; sign-ups per address stop
// at the limit. Neither locks out an owner elsewhere.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';

describe.each(ENGINES)('throttled password checks and sign-ups on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(engine, { env: { LOGIN_MAX_ATTEMPTS: '3', SIGNUP_MAX_PER_ADDRESS: '3' } });
  });
  afterAll(() => t.close());

  const changePassword = (token: string, current_password: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me/password',
      headers: bearer(token),
      payload: { current_password, new_password: 'a-new-password-9' },
    });

  it('wrong current passwords slow down after the limit, even the right one then waits; other accounts are untouched', async () => {
    const user = await createUser(t, 'guessed@example.com', 'user-password-1');
    const bystander = await createUser(t, 'bystander2@example.com', 'user-password-1');
    for (let i = 0; i < 3; i++) expect((await changePassword(user.token, `wrong-${i}`)).statusCode).toBe(400);
    const blocked = await changePassword(user.token, 'user-password-1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ detail: 'Too many wrong passwords. Please wait a moment and try again.' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const ok = await changePassword(bystander.token, 'user-password-1');
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a blocked account is answered from memory until its block ends, then checked again', async () => {
    // Issue 20: ten clients hammering a throttled form slowed everyone's login, each refusal costing
    // two statements on the shared (on the embedded engine, the only) connection.
    const user = await createUser(t, 'hammer@example.com', 'user-password-1');
    for (let i = 0; i < 3; i++) expect((await changePassword(user.token, `wrong-${i}`)).statusCode).toBe(400);
    expect((await changePassword(user.token, 'wrong-3')).statusCode).toBe(429);
    // Had the refusal gone to the database, the missing counter would let the next guess be checked.
    await t.ctx.db.execute(sql`DELETE FROM attempt_counters WHERE key = ${`password-check:${user.id}`}`);
    const fromMemory = await changePassword(user.token, 'wrong-4');
    expect(fromMemory.statusCode).toBe(429);
    expect(Number(fromMemory.headers['retry-after'])).toBe(1);
    // The first block lasts 1 s (waits double from there): the memory keeps it no longer.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await changePassword(user.token, 'user-password-1')).statusCode).toBe(200);
  });

  it('a right password resets the count', async () => {
    const user = await createUser(t, 'typo@example.com', 'user-password-1');
    for (let i = 0; i < 2; i++) expect((await changePassword(user.token, 'typo')).statusCode).toBe(400);
    expect((await changePassword(user.token, 'user-password-1')).statusCode).toBe(200);
  });

  it('sign-ups from one address stop at the limit with 429 and Retry-After, whatever the email', async () => {
    const signUp = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/users/signup', payload: { email, password: 'signup-password-1', full_name: 'S' } });
    for (let i = 0; i < 3; i++) expect((await signUp(`mint-${i}@example.com`)).statusCode).toBe(200);
    for (const email of ['mint-3@example.com', 'mint-0@example.com']) {
      const res = await signUp(email);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ detail: 'Too many sign-ups from this address. Please try again later.' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
