// Ending sessions on the server: one token (sign out) or every token of a user (sign out
// everywhere, deactivation). Tokens stay stateless JWTs; only the signed-out ones are remembered,
// until they would have expired anyway.
import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { UserRow } from '../users/schemas.ts';
import type { TxStep } from '../db/tx-step.ts';
import { revokedTokens, users } from '../db/schema.ts';

export class Sessions {
  /**
   * The guard's read, built once and run as a named statement: it runs before every request, and
   * building it anew each time was about a tenth of the API's own CPU on a page whose SQL takes a
   * millisecond (profile of the lookups page under 10 clients, issue 16); PostgreSQL parses it once
   * per connection. PGlite takes the same call and ignores the name.
   */
  private readonly tokenUserQuery;

  constructor(private readonly db: Db) {
    this.tokenUserQuery = db
      .select({
        user: users,
        revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${sql.placeholder('tokenId')})`,
      })
      .from(users)
      .where(eq(users.id, sql.placeholder('userId')))
      .prepare('guard_token_user');
  }

  /**
   * The token's user and whether the token was signed out, in ONE query: the guard asks this on
   * every request, so a second round trip for the sign-out check would cost every request.
   */
  async tokenUser(userId: string, tokenId: string): Promise<{ user: UserRow; revoked: boolean } | undefined> {
    const [row] = await this.tokenUserQuery.execute({ userId, tokenId });
    return row;
  }

  /** Ends one token; forgets those past their expiry on the way (they are refused by their date). */
  async revoke(tokenId: string, expiresAt: Date): Promise<void> {
    await this.db.delete(revokedTokens).where(lt(revokedTokens.expires_at, sql`now()`));
    await this.db.insert(revokedTokens).values({ jti: tokenId, expires_at: expiresAt }).onConflictDoNothing();
  }

  /**
   * Ends every token the user holds: they carry the old stamp. `step` (the audit event) runs in the
   * same transaction, so the event exists exactly when the sessions ended.
   */
  async endAll(userId: string, step?: TxStep<UserRow>): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.update(users).set({ session_stamp: new Date() }).where(eq(users.id, userId)).returning();
      if (row) await step?.(tx, row);
    });
  }
}
