// The login's device cookie (OWASP, "Slow brute-force / device cookies"): a browser where a user
// signed in gets a signed cookie naming that user; its later logins to that account are counted per
// device instead of per address, so strangers' guesses and sprays behind the same address never
// lock the owner out. The cookie proves only that this browser once knew the password: it lets no
// one in by itself, and its holder's own wrong passwords are still throttled (per device).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionOwner } from '../core/security/tokens.ts';

export const DEVICE_COOKIE = 'login_device';

/** What the cookie says, once its signature and expiry are checked. */
export interface DeviceClaims {
  /** The user it was issued to. */
  u: string;
  /** The device's id: its own attempt counter, new at every sign-in (the cookie rotates). */
  d: string;
  /** The user's password and session stamps then: changing the password or signing out everywhere ends the cookie. */
  p: number;
  s: number;
  /** Expiry, ms since the epoch (the browser's Max-Age is not trusted: the cookie may be replayed). */
  e: number;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export class DeviceCookies {
  /** A key of its own, derived from SECRET_KEY, so a device cookie is never mistaken for a token. */
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly days: number,
    /** FRONTEND_HOST is https: the cookie is Secure even when a proxy speaks http to the API. */
    private readonly httpsFrontend: boolean,
  ) {
    this.key = createHmac('sha256', secret).update('login device cookie').digest();
  }

  private sign(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  /** The request's cookie when it was signed here and is unexpired (checked before any database read). */
  read(req: FastifyRequest): DeviceClaims | undefined {
    const value = cookieValue(req.headers.cookie, DEVICE_COOKIE);
    const [payload, mac] = value?.split('.') ?? [];
    if (!payload || !mac) return undefined;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as DeviceClaims;
      return typeof claims.e === 'number' && claims.e > Date.now() ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The device id when the cookie was issued to `user` and is still bound to its password and
   * sessions; otherwise undefined (no cookie, someone else's, from before a change).
   */
  deviceOf(claims: DeviceClaims | undefined, user: SessionOwner | undefined): string | undefined {
    if (!claims || !user) return undefined;
    const bound = claims.u === user.id && claims.p === user.password_changed_at.getTime() && claims.s === user.session_stamp.getTime();
    return bound ? claims.d : undefined;
  }

  /**
   * Gives the browser a fresh cookie for `user` (a new device id each sign-in). HttpOnly (no script
   * reads it), SameSite=Strict, sent only to the login route, Secure over https.
   */
  issue(req: FastifyRequest, reply: FastifyReply, user: SessionOwner): void {
    const maxAge = this.days * 86_400;
    const claims: DeviceClaims = {
      u: user.id,
      d: randomUUID(),
      p: user.password_changed_at.getTime(),
      s: user.session_stamp.getTime(),
      e: Date.now() + maxAge * 1000,
    };
    const payload = b64(JSON.stringify(claims));
    const secure = this.httpsFrontend || req.protocol === 'https';
    const attributes = [
      `Path=${req.routeOptions.url ?? req.url}`,
      `Max-Age=${maxAge}`,
      'HttpOnly',
      'SameSite=Strict',
      ...(secure ? ['Secure'] : []),
    ];
    reply.header('set-cookie', `${DEVICE_COOKIE}=${payload}.${b64(this.sign(payload))}; ${attributes.join('; ')}`);
  }
}

/** One cookie's value from a Cookie header (its values here are base64url: no quoting or escapes). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
