// Signed JWTs (HS256): access tokens for the session, reset tokens for password recovery.
import { SignJWT, jwtVerify } from 'jose';

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly accessMinutes: number,
    private readonly resetHours: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * The access token carries the password's change stamp too: changing or resetting the password
   * ends every session that started before it.
   */
  createAccessToken(userId: string, passwordStamp: Date): Promise<string> {
    return new SignJWT({ typ: 'access', pwd: passwordStamp.getTime() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
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

  async verifyAccessToken(token: string): Promise<{ userId: string; passwordStamp: number } | null> {
    const payload = await this.verify(token, 'access');
    if (!payload?.sub || typeof payload.pwd !== 'number') return null;
    return { userId: payload.sub, passwordStamp: payload.pwd };
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
