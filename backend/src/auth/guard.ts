// Guarded by default: every API route needs a valid bearer token unless it is listed public; a
// route with `config: { access: 'superuser' }` needs a superuser too. Answers: 401 without a
// token, 403 for a bad one, 400 for an inactive user, 403 for a user who is not a superuser.
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { App, AppContext } from '../core/context.ts';
import { FairShare } from '../lib/fair-share.ts';
import { HttpError, forbidden, tooManyRequests } from '../lib/http-errors.ts';
import { Sessions } from './sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The bearer token's id and expiry, once the guard has accepted it (sign-out revokes it). */
    accessToken?: { id: string; expiresAt: Date };
  }
  interface FastifyContextConfig {
    /** Who may call a guarded route: any active user (the default) or superusers only. */
    access?: 'user' | 'superuser';
    /**
     * false for a route whose response lasts as long as the client wants (live events, CSV downloads,
     * uploads): it has per-user limits of its own and takes no turn of the user's fair share.
     */
    fairShare?: boolean;
  }
}

/** The OpenAPI security requirement; the guard puts it on every guarded route's schema. */
export const SECURITY = [{ OAuth2PasswordBearer: [] }];

/** 'METHOD /path' as a route is registered (HEAD goes with its GET). */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Adds the guard to every route registered on `api` from now on, except those in `publicRoutes`
 * (keys from routeKey), with a "decisions only" account held to `decisionsOnly`. Call before registering routes.
 */
/** The routes a "decisions only" account may call, and what the others answer it. */
export interface DecisionsOnlyRule {
  allows(key: string, url: string): boolean;
  refusal: string;
}

export function guardRoutes(api: App, ctx: AppContext, publicRoutes: ReadonlySet<string>, decisionsOnly: DecisionsOnlyRule): void {
  const sessions = new Sessions(ctx.db);
  const share = new FairShare(ctx.config.REQUEST_MAX_RUNNING_PER_USER, ctx.config.REQUEST_MAX_WAITING_PER_USER);

  /**
   * Waits for one of the token's user's turns (checked signature first, so a forged token cannot
   * queue in someone else's line), before any database work; the turn ends when the response does.
   */
  async function takeTurn(userId: string, reply: FastifyReply): Promise<void> {
    const turn = share.enter(userId);
    if (!turn) throw tooManyRequests('Too many requests at once. Please wait a moment and try again.', 1);
    const release = await turn;
    if (reply.raw.writableFinished || reply.raw.destroyed) release();
    else reply.raw.once('close', release);
  }

  async function authenticate(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (token === undefined) throw new HttpError(401, 'Not authenticated', { 'www-authenticate': 'Bearer' });
    const claims = await ctx.tokens.verifyAccessToken(token.trim());
    if (claims && req.routeOptions.config.fairShare !== false) await takeTurn(claims.userId, reply);
    // A token for a user that no longer exists is as good as a forged one, and so is one from
    // before the password last changed, from before the user signed out everywhere or was
    // deactivated, and one signed out.
    const found = claims && /^[0-9a-f-]{36}$/i.test(claims.userId) ? await sessions.tokenUser(claims.userId, claims.tokenId) : undefined;
    const user = found?.user;
    if (
      !user ||
      !claims ||
      found.revoked ||
      user.password_changed_at.getTime() !== claims.passwordStamp ||
      user.session_stamp.getTime() !== claims.sessionStamp
    )
      throw new HttpError(403, 'Could not validate credentials');
    if (!user.is_active) throw new HttpError(400, 'Inactive user');
    req.currentUser = user;
    req.accessToken = { id: claims.tokenId, expiresAt: claims.expiresAt };
  }

  async function requireSuperuser(req: FastifyRequest): Promise<void> {
    if (!req.currentUser?.is_superuser) throw forbidden();
  }

  /** A "decisions only" account sees no figure: only its own account and the scan page (decisions-only-routes.ts). */
  async function refuseDecisionsOnly(req: FastifyRequest): Promise<void> {
    const user = req.currentUser;
    if (user?.decisions_only && !user.is_superuser) throw forbidden(decisionsOnly.refusal);
  }

  api.addHook('onRoute', (route: RouteOptions) => {
    const methods = asArray(route.method);
    const open = methods.map((m) => publicRoutes.has(routeKey(m, route.url)));
    if (open.every(Boolean)) return;
    if (open.some(Boolean)) throw new Error(`${route.url}: some of its methods are public, some not; register them separately`);
    const superuser = route.config?.access === 'superuser';
    const scouts = methods.map((m) => decisionsOnly.allows(routeKey(m, route.url), route.url));
    if (scouts.some(Boolean) && !scouts.every(Boolean))
      throw new Error(`${route.url}: decisions-only accounts may use some of its methods; register them separately`);
    const refusals = scouts.every(Boolean) ? [] : [refuseDecisionsOnly];
    route.onRequest = [authenticate, ...refusals, ...(superuser ? [requireSuperuser] : []), ...asArray(route.onRequest)];
    if (route.schema) route.schema = { ...route.schema, security: route.schema.security ?? SECURITY };
  });
}
