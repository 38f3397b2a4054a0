// An office behind one address (issue 29), on both databases: one person's typos no longer lock out
// everyone behind the address (the address counts distinct accounts, not attempts), spraying many
// accounts from one address is still slowed, and a browser that signed in carries a signed device
// cookie that keeps its owner exempt from strangers at the same address.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../src/auth/device-cookie.ts';
import { ADMIN, bearer, changeOwnPassword, createUser, postLoginForm, startTestApp, testAppPerSuite, type TestApp } from './helpers/app.ts';
import { ENGINES, onOneEngine } from './helpers/databases.ts';

/** The device cookie a response set, as a Cookie header sends it back ("name=value"), or undefined. */
function deviceCookie(res: { headers: Record<string, unknown> }): string | undefined {
  const set = res.headers['set-cookie'];
  const all = Array.isArray(set) ? set : set === undefined ? [] : [String(set)];
  return all.find((c: string) => c.startsWith(`${DEVICE_COOKIE}=`))?.split(';')[0];
}

describe.each(ENGINES)('logins behind a shared address on %s', (engine) => {
  const t = testAppPerSuite(engine);

  const loginFrom = (address: string, username: string, password: string, cookie?: string) =>
    postLoginForm(t.app, { username, password }, { from: address, headers: cookie ? { cookie } : {} });
  /** One wrong password for each of `n` accounts (some real, most not) from `address`: a spray. */
  async function spray(address: string, n: number, prefix: string): Promise<number[]> {
    const codes: number[] = [];
    for (let i = 0; i < n; i++) codes.push((await loginFrom(address, `${prefix}-${i}@example.com`, 'Summer2026!')).statusCode);
    return codes;
  }
  /**
   * A spray of 15 accounts that goes on: its address then waits minutes, not the first 1 s (which a
   * loaded machine could outlast between two steps of a test), as if the sprayer had kept trying.
   */
  async function sprayOnAndOn(address: string, prefix: string): Promise<void> {
    const codes = await spray(address, 15, prefix);
    expect(codes).toContain(429);
    await t.ctx.db.execute(
      sql`UPDATE attempt_counters SET blocked_until = now() + interval '10 minutes' WHERE key = ${`login-address:${address}`}`,
    );
  }
  /** Signs in and answers the device cookie the browser now holds. */
  async function signInFrom(address: string, email: string, password: string): Promise<string> {
    const res = await loginFrom(address, email, password);
    expect(res.statusCode, res.body).toBe(200);
    const cookie = deviceCookie(res);
    expect(cookie).toBeDefined();
    return cookie ?? '';
  }

  it("a colleague, and the first superuser, sign in after someone else's ten typos from the same address", async () => {
    const office = '10.29.0.1';
    await createUser(t, 'typist@example.com', 'typist-password-1');
    await createUser(t, 'colleague@example.com', 'colleague-password-1');
    const limit = t.ctx.config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS;
    for (let i = 0; i < limit; i++) expect((await loginFrom(office, 'typist@example.com', `typo-${i}`)).statusCode).toBe(400);
    // Before issue 29 the address counted attempts: these two were refused with 429.
    expect((await loginFrom(office, 'colleague@example.com', 'colleague-password-1')).statusCode).toBe(200);
    expect((await loginFrom(office, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
  });

  it('fifteen accounts sprayed from one address are still slowed, and retrying a counted account is no way round', async () => {
    const address = '10.29.0.2';
    const limit = t.ctx.config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS;
    const codes = await spray(address, 15, 'sprayed');
    expect(codes.slice(0, limit)).toEqual(Array(limit).fill(400));
    // The wait doubles from 1 s, so on a slow machine one later guess may get through; never most.
    expect(codes[limit]).toBe(429);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(15 - limit - 1);
    const retried = await loginFrom(address, 'sprayed-0@example.com', 'Autumn2026!');
    expect(retried.statusCode).toBe(429);
    expect(Number(retried.headers['retry-after'])).toBeGreaterThan(0);
    // Everyone behind that address without a device cookie waits too, the superuser included.
    expect((await loginFrom(address, ADMIN.email, ADMIN.password)).statusCode).toBe(429);
  });

  it('an owner is never locked out by strangers at the same address: their browser’s device cookie exempts them', async () => {
    const office = '10.29.0.3';
    await createUser(t, 'owner-device@example.com', 'owner-password-1');
    const ownerCookie = await signInFrom(office, 'owner-device@example.com', 'owner-password-1');
    const adminCookie = await signInFrom(office, ADMIN.email, ADMIN.password);
    // A stranger behind the same address guesses the owner's password, then sprays.
    for (let i = 0; i < t.ctx.config.LOGIN_MAX_ATTEMPTS + 2; i++) await loginFrom(office, 'owner-device@example.com', `guess-${i}`);
    await sprayOnAndOn(office, 'stranger');
    expect((await loginFrom(office, 'owner-device@example.com', 'owner-password-1')).statusCode).toBe(429);
    expect((await loginFrom(office, ADMIN.email, ADMIN.password)).statusCode).toBe(429);

    const owner = await loginFrom(office, 'owner-device@example.com', 'owner-password-1', ownerCookie);
    expect(owner.statusCode, owner.body).toBe(200);
    // Each sign-in hands the browser a fresh cookie (a new device id).
    const rotated = deviceCookie(owner);
    expect(rotated).toBeDefined();
    expect(rotated).not.toBe(ownerCookie);
    expect((await loginFrom(office, ADMIN.email, ADMIN.password, adminCookie)).statusCode).toBe(200);
    // The cookie is bound to its user: it exempts no one typing another account.
    expect((await loginFrom(office, 'stranger-0@example.com', 'Summer2026!', rotated)).statusCode).toBe(429);
    expect((await loginFrom(office, ADMIN.email, ADMIN.password, rotated)).statusCode).toBe(429);
  });

  it("the cookie holder's own wrong passwords are still throttled, per device", async () => {
    const address = '10.29.0.4';
    await createUser(t, 'device-typist@example.com', 'typist-password-1');
    const cookie = await signInFrom(address, 'device-typist@example.com', 'typist-password-1');
    const limit = t.ctx.config.LOGIN_MAX_ATTEMPTS;
    const codes: number[] = [];
    // Past the limit the waits double from 1 s: a 429 comes within a few more tries, however slow the machine.
    while (codes.length < limit + 5 && codes.at(-1) !== 429)
      codes.push((await loginFrom(address, 'device-typist@example.com', `typo-${codes.length}`, cookie)).statusCode);
    expect(codes.slice(0, limit)).toEqual(Array(limit).fill(400));
    expect(codes.at(-1)).toBe(429);
    // The device's count is its own: the same account from this address without the cookie is not blocked.
    expect((await loginFrom(address, 'device-typist@example.com', 'typist-password-1')).statusCode).toBe(200);
  });

  it('the cookie is HttpOnly, SameSite=Strict and sent only to the login; a failed login sets none and answers alike', async () => {
    const address = '10.29.0.5';
    await createUser(t, 'cookie-attrs@example.com', 'attrs-password-1');
    const ok = await loginFrom(address, 'cookie-attrs@example.com', 'attrs-password-1');
    const set = String(ok.headers['set-cookie']);
    expect(set).toMatch(new RegExp(`^${DEVICE_COOKIE}=[\\w-]+\\.[\\w-]+; `));
    expect(set.split('; ').slice(1).sort()).toEqual(
      ['HttpOnly', `Max-Age=${t.ctx.config.LOGIN_DEVICE_DAYS * 86_400}`, 'Path=/api/v1/login/access-token', 'SameSite=Strict'].sort(),
    );
    const wrong = await loginFrom(address, 'cookie-attrs@example.com', 'wrong-password-1');
    const unknown = await loginFrom(address, 'nobody-attrs@example.com', 'wrong-password-1');
    for (const res of [wrong, unknown]) expect(res.headers['set-cookie']).toBeUndefined();
    expect([unknown.statusCode, unknown.body]).toEqual([wrong.statusCode, wrong.body]);
  });

  it('a forged cookie, and one from before a password change or signing out everywhere, exempts no one', async () => {
    const office = '10.29.0.6';
    const { token } = await createUser(t, 'revoked-device@example.com', 'first-password-1');
    const cookie = await signInFrom(office, 'revoked-device@example.com', 'first-password-1');
    const forged = `${cookie.slice(0, -3)}${cookie.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const afterSignOut = await signInFrom(office, 'revoked-device@example.com', 'first-password-1');
    await sprayOnAndOn(office, 'revoker');
    expect((await loginFrom(office, 'revoked-device@example.com', 'first-password-1', forged)).statusCode).toBe(429);
    expect((await loginFrom(office, 'revoked-device@example.com', 'first-password-1', cookie)).statusCode).toBe(200);

    const signedOut = await t.app.inject({ method: 'POST', url: '/api/v1/login/sign-out-everywhere', headers: bearer(token) });
    expect(signedOut.statusCode).toBe(200);
    expect((await loginFrom(office, 'revoked-device@example.com', 'first-password-1', afterSignOut)).statusCode).toBe(429);

    const fresh = await signInFrom('10.29.0.7', 'revoked-device@example.com', 'first-password-1');
    const freshToken = (await postLoginForm(t.app, { username: 'revoked-device@example.com', password: 'first-password-1' })).json()
      .access_token as string;
    expect((await changeOwnPassword(t.app, freshToken, 'first-password-1', 'second-password-1')).statusCode).toBe(200);
    expect((await loginFrom(office, 'revoked-device@example.com', 'second-password-1', fresh)).statusCode).toBe(429);
  });

  // The cookie's Secure flag follows FRONTEND_HOST alone, set by the HTTP layer: on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    it('the device cookie is Secure when the frontend is served over https', async () => {
      const https: TestApp = await startTestApp(engine, { env: { FRONTEND_HOST: 'https://books.example.com' } });
      try {
        const res = await postLoginForm(https.app, { username: ADMIN.email, password: ADMIN.password });
        expect(res.statusCode).toBe(200);
        expect(String(res.headers['set-cookie']).split('; ')).toContain('Secure');
      } finally {
        await https.close();
      }
    }),
  );
});
