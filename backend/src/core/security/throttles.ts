// Limits on the requests that cost a password hash or create an account, beside login's: counted
// in the database (every API process shares them); the routes answer 429 with Retry-After.
import type { Config } from '../config.ts';
import type { LimitPolicy } from './attempt-limiter.ts';

/** Failures per account (login's pair policy): then waits of 1 s, 2 s, 4 s…, never a lockout. */
export const passwordCheckPolicy = (c: Config): LimitPolicy => ({
  max: c.LOGIN_MAX_ATTEMPTS,
  windowSeconds: c.LOGIN_WINDOW_SECONDS,
  after: 'double',
  maxDelaySeconds: c.LOGIN_MAX_DELAY_SECONDS,
});

/** Sign-ups per client address; a whole window's wait once reached. */
export const signupPolicy = (c: Config): LimitPolicy => ({
  max: c.SIGNUP_MAX_PER_ADDRESS,
  windowSeconds: c.SIGNUP_WINDOW_SECONDS,
  after: 'window',
});
