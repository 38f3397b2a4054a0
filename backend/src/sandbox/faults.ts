// Which failure (if any) a request meets. Drawn from (seed, marketplace, ISBN, attempt), so runs are
// reproducible and the next attempt at the same ISBN draws again.
import type { MarketplaceId } from '@app/domain/marketplaces';
import type { SandboxOptions } from './options.ts';
import { unit } from './random.ts';

export type Fault = 'rate_limited' | 'unavailable' | 'timeout' | 'malformed';

export function faultFor(opts: SandboxOptions, marketplace: MarketplaceId, isbn: string, attempt: number): Fault | null {
  const r = unit(opts.seed, 'fault', marketplace, isbn, attempt);
  let edge = 0;
  for (const [fault, share] of [
    ['rate_limited', opts.rate429Share],
    ['unavailable', opts.rate5xxShare],
    ['timeout', opts.timeoutShare],
    ['malformed', opts.malformedShare],
  ] as const) {
    edge += share;
    if (r < edge) return fault;
  }
  return null;
}
