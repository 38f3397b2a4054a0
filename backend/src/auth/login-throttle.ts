// The login's limits (issue 29), counted in the database so every API process shares them:
// - per account and address: a guesser slows only themself, never the owner elsewhere;
// - per address, the distinct accounts tried (not the attempts): spraying many accounts from one
//   address is slowed, while one person's typos on their own account cost the address one unit, so
//   an office behind one address is not locked out by a colleague;
// - a browser with the account's device cookie (device-cookie.ts) is counted on its own instead of
//   the two above: strangers behind the same address never lock its owner out.
import { createHash } from 'node:crypto';
import type { Config } from '../core/config.ts';
import type { AttemptLimiter, LimitPolicy } from '../core/security/attempt-limiter.ts';
import { passwordCheckPolicy } from '../core/security/throttles.ts';

export interface LoginAttempt {
  /** The username as typed, trimmed and lowercased. */
  account: string;
  address: string;
  /** The device id of a valid device cookie issued to this account, if the browser sent one. */
  device?: string;
}

/**
 * The account as the counters store it: hashed, since what was typed into the username field may be
 * a password (the counters are not the place to keep it, not even for a day).
 */
const accountTag = (account: string) => createHash('sha256').update(account).digest('base64url').slice(0, 22);

export class LoginThrottle {
  private readonly perAccount: LimitPolicy;
  private readonly perAddress: LimitPolicy;

  constructor(
    private readonly limiter: AttemptLimiter,
    c: Config,
  ) {
    this.perAccount = passwordCheckPolicy(c);
    this.perAddress = { ...this.perAccount, max: c.LOGIN_MAX_ATTEMPTS_PER_ADDRESS, windowSeconds: c.LOGIN_ADDRESS_WINDOW_SECONDS };
  }

  private keys(a: LoginAttempt) {
    const tag = accountTag(a.account);
    return { tag, pair: `login:${tag}|${a.address}`, address: `login-address:${a.address}`, device: `login-device:${a.device}` };
  }

  /**
   * Counts the attempt before the password is checked. 0 when it may go ahead, else seconds to wait.
   * The address first: a blocked address leaves the account's count alone, and an account already
   * counted for the address goes ahead without counting again.
   */
  async take(a: LoginAttempt): Promise<number> {
    const k = this.keys(a);
    if (a.device) return this.limiter.take(k.device, this.perAccount);
    return (await this.limiter.take(k.address, this.perAddress, k.tag)) || (await this.limiter.take(k.pair, this.perAccount));
  }

  /** A right password: the account's failures are forgotten, and it no longer counts against the address. */
  async succeeded(a: LoginAttempt): Promise<void> {
    const k = this.keys(a);
    if (a.device) return this.limiter.reset(k.device);
    await Promise.all([this.limiter.reset(k.pair), this.limiter.refund(k.address, k.tag)]);
  }
}
