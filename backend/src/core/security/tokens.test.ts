import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from './tokens.ts';

const owner = { id: 'u1', password_changed_at: new Date(1000), session_stamp: new Date(2000) };

describe('access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies a token again from memory, and refuses it once expired even then', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = new TokenService('s'.repeat(40), 1, 1);
    const token = await tokens.createAccessToken(owner);
    const first = await tokens.verifyAccessToken(token);
    expect(first).toMatchObject({ userId: 'u1', passwordStamp: 1000, sessionStamp: 2000 });
    expect(await tokens.verifyAccessToken(token)).toEqual(first);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await tokens.verifyAccessToken(token)).toBeNull();
  });

  it('refuses a token signed with another key or altered, however often asked', async () => {
    const tokens = new TokenService('s'.repeat(40), 5, 1);
    const foreign = await new TokenService('t'.repeat(40), 5, 1).createAccessToken(owner);
    const own = await tokens.createAccessToken(owner);
    const altered = `${own.slice(0, -2)}${own.endsWith('AA') ? 'BB' : 'AA'}`;
    for (let i = 0; i < 2; i++) {
      expect(await tokens.verifyAccessToken(foreign)).toBeNull();
      expect(await tokens.verifyAccessToken(altered)).toBeNull();
    }
    expect(await tokens.verifyAccessToken(own)).not.toBeNull();
  });
});
