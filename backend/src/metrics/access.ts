// Who may read /metrics: whoever presents METRICS_TOKEN as a bearer token. Unset, there is no
// metrics endpoint at all (404); a missing token is 401 and a wrong one 403, as on every route.
import { createHash, timingSafeEqual } from 'node:crypto';

export type MetricsAccess = { ok: true } | { ok: false; status: 401 | 403 | 404; detail: string };

/** Compares digests, so neither the token's length nor its first differing byte shows in the timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function metricsAccess(expected: string | undefined, authorization: string | undefined): MetricsAccess {
  if (!expected) return { ok: false, status: 404, detail: 'Not Found' };
  const token = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (token === undefined) return { ok: false, status: 401, detail: 'Not authenticated' };
  if (!sameSecret(token, expected)) return { ok: false, status: 403, detail: 'Could not validate credentials' };
  return { ok: true };
}
