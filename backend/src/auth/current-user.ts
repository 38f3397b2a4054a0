// Bearer-token guards: 401 without a token, 403 for a bad one, 400 for an inactive user.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { HttpError, forbidden } from '../lib/http-errors.ts';
import type { UserRow } from '../users/schemas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    currentUser: UserRow | null;
  }
}

export const SECURITY = [{ OAuth2PasswordBearer: [] }];

export function authGuards(ctx: AppContext) {
  async function requireUser(req: FastifyRequest): Promise<void> {
    const header = req.headers.authorization;
    const token = header?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (token === undefined) throw new HttpError(401, 'Not authenticated', { 'www-authenticate': 'Bearer' });
    const claims = await ctx.tokens.verifyAccessToken(token.trim());
    // A token for a user that no longer exists is as good as a forged one, and so is one from
    // before the password last changed.
    const user = claims && /^[0-9a-f-]{36}$/i.test(claims.userId) ? await ctx.users.byId(claims.userId) : undefined;
    if (!user || !claims || user.password_changed_at.getTime() !== claims.passwordStamp) throw new HttpError(403, 'Could not validate credentials');
    if (!user.is_active) throw new HttpError(400, 'Inactive user');
    req.currentUser = user;
  }

  async function requireSuperuser(req: FastifyRequest): Promise<void> {
    await requireUser(req);
    if (!currentUser(req).is_superuser) throw forbidden();
  }

  return { requireUser, requireSuperuser };
}

export function currentUser(req: FastifyRequest): UserRow {
  if (!req.currentUser) throw new HttpError(401, 'Not authenticated');
  return req.currentUser;
}
