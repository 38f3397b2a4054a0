// The user a request is made by, as the auth guard (auth/guard.ts) found it from the bearer token.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-errors.ts';
import type { UserRow } from './schemas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    currentUser: UserRow | null;
  }
}

/** The caller of a guarded route (every route not listed public). */
export function currentUser(req: FastifyRequest): UserRow {
  if (!req.currentUser) throw new HttpError(401, 'Not authenticated');
  return req.currentUser;
}
