// Login with Amazon: the seller's refresh token exchanged for an access token (sent as
// x-amz-access-token; no request signing since 2023-10-02). One token per process, kept until
// shortly before `expires_in` runs out, and one exchange in flight however many batches ask at once.
// The token is never logged.
import { describe, parseJsonObject, timedFetch } from '../http.ts';

export interface LwaClient {
  /** Token endpoint base, e.g. https://api.amazon.com (the path /auth/o2/token is LWA's). */
  url: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  refreshToken: string;
  timeoutMs: number;
}

/** Why no token: `final` when asking again cannot help (wrong credentials), else a transient failure. */
export class LwaError extends Error {
  constructor(
    message: string,
    readonly final: boolean,
  ) {
    super(message);
  }
}

/** Renewed this long before Amazon says it expires, so a request never carries a token that lapses on the way. */
export const RENEW_BEFORE_MS = 60_000;

export class LwaTokens {
  private token: { value: string; renewAt: number } | undefined;
  private exchanging: Promise<string> | undefined;

  constructor(
    private readonly client: LwaClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** A valid access token: the cached one, or the one exchange in flight, or a new exchange. */
  get(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.exchanging ??= this.exchange().finally(() => {
      this.exchanging = undefined;
    });
    return this.exchanging;
  }

  /** Drops the cached token (Amazon refused it: revoked or expired early), so the next call exchanges again. */
  forget(): void {
    this.token = undefined;
  }

  private async exchange(): Promise<string> {
    const { url, clientId, clientSecret, refreshToken, timeoutMs } = this.client;
    if (!clientId || !clientSecret) {
      throw new LwaError('AMAZON_CLIENT_ID and AMAZON_CLIENT_SECRET must be set with AMAZON_REFRESH_TOKEN', true);
    }
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
      client_secret: clientSecret,
    });
    // Shared by every waiting batch: a stopping worker's signal must not cut it off for the others.
    const answer = await timedFetch(
      `${url}/auth/o2/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
        body: form,
      },
      timeoutMs,
      new AbortController().signal,
    );
    if ('outcome' in answer) {
      const { outcome } = answer;
      throw new LwaError(`Login with Amazon: ${outcome.kind === 'retry' ? outcome.reason : outcome.message}`, outcome.kind === 'failed');
    }
    const { status, body } = answer;
    let doc: Record<string, unknown>;
    try {
      doc = parseJsonObject(body);
    } catch (err) {
      throw new LwaError(
        `Login with Amazon answered HTTP ${status} with an unreadable body (${describe(err)})`,
        status >= 400 && status < 500 && status !== 408 && status !== 429,
      );
    }
    if (status >= 200 && status < 300) {
      const value = doc.access_token;
      const expiresIn = typeof doc.expires_in === 'number' ? doc.expires_in : Number(doc.expires_in);
      if (typeof value !== 'string' || value === '' || !Number.isFinite(expiresIn)) {
        throw new LwaError('Login with Amazon answered without access_token and expires_in', false);
      }
      this.token = { value, renewAt: this.now() + Math.max(0, expiresIn * 1000 - RENEW_BEFORE_MS) };
      return value;
    }
    // {"error": "invalid_grant", "error_description": "…"}: LWA's error body (aa-java LWAClient).
    const code = typeof doc.error === 'string' ? doc.error : `HTTP ${status}`;
    const detail = typeof doc.error_description === 'string' ? `: ${doc.error_description}` : '';
    const transient = status >= 500 || status === 429 || code === 'server_error' || code === 'temporarily_unavailable';
    throw new LwaError(`Login with Amazon refused the credentials (${code}${detail})`, !transient);
  }
}
