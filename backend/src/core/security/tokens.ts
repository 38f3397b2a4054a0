// Signed JWTs (HS256): access tokens for the session, reset tokens for password recovery.
import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/** What an access token is issued for: the user and the stamps that can end its sessions. */
export interface SessionOwner {
  id: string;
  password_changed_at: Date;
  session_stamp: Date;
}

export interface AccessClaims {
  userId: string;
  passwordStamp: number;
  sessionStamp: number;
  /** The token's own id (`jti`): signing out revokes it alone. */
  tokenId: string;
  expiresAt: Date;
}

/**
 * Access tokens already verified, so a session's every request does not check the signature again:
 * WebCrypto's HMAC runs as a thread-pool job, ~8 % of a lookups page request's time in a profile.
 * Signing out, password changes and deactivation are still checked per request by the guard's query.
 */
const VERIFIED_CACHE_SIZE = 1000;

export class TokenService {
  private readonly key: Uint8Array;
  /** By token; the oldest entry goes when full (a Map iterates in insertion order). */
  private readonly verified = new Map<string, AccessClaims>();

  constructor(
    secret: string,
    private readonly accessMinutes: number,
    private readonly resetHours: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * The access token carries the password's change stamp and the session stamp: changing or
   * resetting the password, signing out everywhere or being deactivated ends every session that
   * started before. Its id lets one sign-out end it alone.
   */
  createAccessToken(user: SessionOwner): Promise<string> {
    return new SignJWT({ typ: 'access', pwd: user.password_changed_at.getTime(), ses: user.session_stamp.getTime() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${this.accessMinutes}m`)
      .sign(this.key);
  }

  /** The reset token carries the password's change stamp, so it stops working once the password changes. */
  createResetToken(email: string, passwordStamp: Date): Promise<string> {
    return new SignJWT({ typ: 'reset', pwd: passwordStamp.getTime() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(email.toLowerCase())
      .setIssuedAt()
      .setExpirationTime(`${Math.round(this.resetHours * 3600)}s`)
      .sign(this.key);
  }

  async verifyAccessToken(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt.getTime() > Date.now()) return known;
      this.verified.delete(token);
      return null;
    }
    const claims = await this.verifyAccess(token);
    if (claims) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, claims);
    }
    return claims;
  }

  private async verifyAccess(token: string): Promise<AccessClaims | null> {
    const payload = await this.verify(token, 'access');
    // Tokens from before sessions could end (no session stamp or id) are refused: one more login.
    if (!payload?.sub || typeof payload.pwd !== 'number' || typeof payload.ses !== 'number' || !payload.jti || !payload.exp) return null;
    return {
      userId: payload.sub,
      passwordStamp: payload.pwd,
      sessionStamp: payload.ses,
      tokenId: payload.jti,
      expiresAt: new Date(payload.exp * 1000),
    };
  }

  async verifyResetToken(token: string): Promise<{ email: string; passwordStamp: number } | null> {
    const payload = await this.verify(token, 'reset');
    if (!payload?.sub || typeof payload.pwd !== 'number') return null;
    return { email: payload.sub, passwordStamp: payload.pwd };
  }

  private async verify(token: string, typ: string) {
    try {
      // A token without an expiry would be good forever: refused, whoever signed it.
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub'] });
      return payload.typ === typ ? payload : null;
    } catch {
      return null;
    }
  }
}
