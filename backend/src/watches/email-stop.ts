// The one-click "stop emailing me about this watch" links of the digest: a token naming watches,
// signed with a key derived from SECRET_KEY, so it needs no sign-in (a mail client's one-click
// unsubscribe, RFC 8058, sends no credentials) and cannot be forged for other watches. It only ever
// turns those watches' email off, so a leaked link costs its owner emails, nothing more. Each
// watch's link in the body names that watch; the List-Unsubscribe header names every watch of the digest.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Watches one token may name: keeps a List-Unsubscribe header a reasonable length. */
export const STOP_TOKEN_MAX_WATCHES = 50;

export class WatchEmailStopTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    // A key of its own, so this token is never mistaken for an access token or a device cookie.
    this.key = createHmac('sha256', secret).update('watch email stop').digest();
  }

  private mac(ids: string): Buffer {
    return createHmac('sha256', this.key).update(`watches:${ids}`).digest();
  }

  /** `<id>-<id>….<mac>`: the ids in the clear, so the token stays short. */
  tokenFor(watchIds: readonly number[]): string {
    const ids = watchIds.join('-');
    return `${ids}.${this.mac(ids).toString('base64url')}`;
  }

  /** The watches a token names, or undefined when it was not made by tokenFor with this secret. */
  watchesOf(token: string): number[] | undefined {
    const m = /^([1-9]\d{0,9}(?:-[1-9]\d{0,9}){0,49})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return undefined;
    const ids = m[1] ?? '';
    const given = Buffer.from(m[2] ?? '', 'base64url');
    const expected = this.mac(ids);
    return given.length === expected.length && timingSafeEqual(given, expected) ? ids.split('-').map(Number) : undefined;
  }
}
