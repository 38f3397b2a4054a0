// PostgreSQL text cannot hold the NUL character: a string carrying one would fail in the database
// (a 500). One hook refuses it up front, naming the field, for every JSON, form and query input.
import type { FastifyInstance } from 'fastify';
import { HttpError, type ValidationIssue } from './http-errors.ts';

export const NUL_MESSAGE = 'Text must not contain the NUL character';

/** Where in `value` a string holds a NUL, as loc paths (at most a few). */
export function findNul(value: unknown, loc: (string | number)[] = [], found: (string | number)[][] = []): (string | number)[][] {
  if (found.length >= 5) return found;
  if (typeof value === 'string') {
    if (value.includes('\0')) found.push(loc);
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) findNul(v, [...loc, i], found);
  } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\0')) found.push([...loc, k]);
      findNul(v, [...loc, k], found);
    }
  }
  return found;
}

export function nulIssues(where: string, value: unknown): ValidationIssue[] {
  return findNul(value, [where]).map((loc) => ({ loc, msg: NUL_MESSAGE, type: 'string_nul' }));
}

export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const issues = [...nulIssues('path', req.params), ...nulIssues('query', req.query), ...nulIssues('body', req.body)];
    if (issues.length) throw new HttpError(422, issues);
  });
}
