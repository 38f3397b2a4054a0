// JSON nested thousands of levels deep parses, but everything that then walks it recursively (the
// NUL guard, schema validation, error reporting) overflows the stack: a 500. No body of ours nests
// more than a few levels, so a body deeper than MAX_JSON_DEPTH is refused before it is parsed.
import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-errors.ts';

export const MAX_JSON_DEPTH = 64;

export const JSON_TOO_DEEP = `The JSON body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

/** Whether JSON text opens more than `max` arrays or objects inside each other (one pass, no parse). */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Replaces Fastify's JSON body parser with the same parser behind the depth check. */
export function installJsonDepthGuard(app: FastifyInstance): void {
  // Fastify's own parser, with its defaults: a body carrying __proto__ or constructor.prototype is refused.
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDepthExceeds(body as string)) return done(new HttpError(400, JSON_TOO_DEEP), undefined);
    return parse(req, body as string, done);
  });
}
