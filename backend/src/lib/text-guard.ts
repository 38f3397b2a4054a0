// Text PostgreSQL cannot store: the NUL character (text and jsonb cannot hold it) and ill-formed
// UTF-16 — a lone surrogate such as "\ud800", which JSON can carry but jsonb refuses (and text
// would silently get as U+FFFD). Either would fail in the database (a 500) or change what was
// sent. One hook refuses both up front, naming the field, for every JSON, form and query input;
// multipart fields go through unstorableTextIssues too (jobs/multipart.ts).
import type { FastifyInstance } from 'fastify';
import { type ValidationIssue, validationError } from './http-errors.ts';

export const NUL_MESSAGE = 'Text must not contain the NUL character';
export const SURROGATE_MESSAGE = 'Text must be well-formed Unicode (it holds a lone UTF-16 surrogate)';

type Loc = (string | number)[];
interface Found {
  loc: Loc;
  issue: ValidationIssue['type'];
}

/**
 * A lone surrogate: a high one not followed by a low one, or a low one without a high one before it
 * (String.prototype.isWellFormed, which the project's ES2023 lib does not type yet).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What is wrong with a string for storage, if anything. */
function problemOf(text: string): 'string_nul' | 'string_unicode' | undefined {
  if (text.includes('\0')) return 'string_nul';
  if (text.search(LONE_SURROGATE) >= 0) return 'string_unicode';
  return undefined;
}

/** Where in `value` a string (or a key) cannot be stored, as loc paths (at most a few). */
export function findUnstorableText(value: unknown, loc: Loc = [], found: Found[] = []): Found[] {
  if (found.length >= 5) return found;
  if (typeof value === 'string') {
    const issue = problemOf(value);
    if (issue) found.push({ loc, issue });
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) findUnstorableText(v, [...loc, i], found);
  } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [k, v] of Object.entries(value)) {
      const issue = problemOf(k);
      if (issue) found.push({ loc: [...loc, k], issue });
      findUnstorableText(v, [...loc, k], found);
    }
  }
  return found;
}

export function unstorableTextIssues(where: string, value: unknown): ValidationIssue[] {
  return findUnstorableText(value, [where]).map(({ loc, issue }) => ({
    loc,
    msg: issue === 'string_nul' ? NUL_MESSAGE : SURROGATE_MESSAGE,
    type: issue,
  }));
}

export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const issues = [
      ...unstorableTextIssues('path', req.params),
      ...unstorableTextIssues('query', req.query),
      ...unstorableTextIssues('body', req.body),
    ];
    if (issues.length) throw validationError(issues);
  });
}

/** A string as PostgreSQL can store it: NUL and lone surrogates shown as U+FFFD (for text read from files, not typed). */
export const storableText = (text: string): string => text.replace(/\0/g, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
