// eBay's application access token (OAuth client-credentials grant): POST {auth}/identity/v1/oauth2/token
// with Basic base64(client_id:client_secret) and grant_type=client_credentials&scope=…/oauth/api_scope.
// The token endpoint allows 1,000 such calls a day, so a process keeps one token until shortly before
// it expires, and concurrent lookups wait for the one exchange in flight instead of starting their own.
// A refusal (wrong keys) is remembered for a while, so a queue full of lookups fails them with the
// reason without one token call each.
import { DEFAULT_MAX_RESPONSE_BYTES, readBodyCapped, ResponseTooLargeError } from '../../lib/capped-body.ts';
import type { LookupOutcome } from '../types.ts';

export const EBAY_SCOPE = 'https://api.ebay.com/oauth/api_scope';
export const TOKEN_PATH = '/identity/v1/oauth2/token';
/** Renew this long before eBay says the token expires (clock drift, a request in flight). */
const RENEW_BEFORE_MS = 5 * 60_000;
/** A refused exchange is not tried again for this long. */
const REFUSAL_MEMORY_MS = 60_000;

export interface TokenCredentials {
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

type Exchange = { token: string; expiresAt: number } | { outcome: LookupOutcome; until?: number };

export class AppTokenSource {
  private current: { token: string; expiresAt: number } | undefined;
  private refused: { outcome: LookupOutcome; until: number } | undefined;
  private inFlight: Promise<Exchange> | undefined;
  /** Token exchanges sent since start (tests and logs). */
  exchanges = 0;

  constructor(
    private readonly creds: TokenCredentials,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A valid token, or the outcome the lookup should end with. */
  async get(signal: AbortSignal): Promise<{ token: string } | { outcome: LookupOutcome }> {
    const t = this.now();
    if (this.current && t < this.current.expiresAt - RENEW_BEFORE_MS) return { token: this.current.token };
    if (this.refused && t < this.refused.until) return { outcome: this.refused.outcome };
    this.inFlight ??= this.exchange().finally(() => (this.inFlight = undefined));
    const result = await raceAbort(this.inFlight, signal);
    if ('token' in result) return { token: result.token };
    return { outcome: result.outcome };
  }

  /** eBay refused the token we sent (expired early, revoked): the next lookup exchanges anew. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async exchange(): Promise<Exchange> {
    this.exchanges++;
    const basic = Buffer.from(`${this.creds.clientId}:${this.creds.clientSecret}`).toString('base64');
    let res: Response;
    let body: string;
    try {
      res = await fetch(`${this.creds.authUrl}${TOKEN_PATH}`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: EBAY_SCOPE }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // A token answer is a few hundred bytes: capped like every upstream body.
      body = new TextDecoder().decode(await readBodyCapped(res, DEFAULT_MAX_RESPONSE_BYTES));
    } catch (err) {
      if (err instanceof ResponseTooLargeError) return { outcome: { kind: 'retry', reason: `eBay token service: ${err.message}` } };
      return { outcome: { kind: 'retry', reason: `eBay token service unreachable: ${err instanceof Error ? err.message : String(err)}` } };
    }
    const outcome = readTokenAnswer(res.status, body, this.now());
    if ('token' in outcome) {
      this.current = outcome;
      this.refused = undefined;
    } else if (outcome.outcome.kind === 'failed') {
      this.refused = { outcome: outcome.outcome, until: this.now() + REFUSAL_MEMORY_MS };
    }
    return outcome;
  }
}

/**
 * The token endpoint's answer: 200 `{access_token, expires_in, token_type}`; a 4xx is a refusal of the
 * keys (OAuth's `{error, error_description}`, e.g. invalid_client), final; 429/5xx or an unreadable
 * 200 are transient.
 */
export function readTokenAnswer(status: number, body: string, now: number): Exchange {
  let doc: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) doc = parsed as Record<string, unknown>;
  } catch {
    doc = undefined;
  }
  if (status === 200) {
    const token = doc?.access_token;
    const expiresIn = Number(doc?.expires_in);
    if (typeof token !== 'string' || token === '' || !Number.isFinite(expiresIn) || expiresIn <= 0)
      return { outcome: { kind: 'retry', reason: 'eBay token service: malformed answer' } };
    return { token, expiresAt: now + expiresIn * 1000 };
  }
  if (status === 429 || status >= 500) return { outcome: { kind: 'retry', reason: `eBay token service unavailable (${status})` } };
  const code = typeof doc?.error === 'string' ? doc.error : undefined;
  const description = typeof doc?.error_description === 'string' ? doc.error_description : undefined;
  const detail = [code, description].filter(Boolean).join(': ');
  return {
    outcome: {
      kind: 'failed',
      message: `eBay refused the application keys (EBAY_CLIENT_ID / EBAY_CLIENT_SECRET), HTTP ${status}${detail ? `: ${detail}` : ''}`,
    },
  };
}

/** The shared exchange, but a lookup whose own signal aborts stops waiting for it. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
