// What an adapter's outcome means for the row: a final status, or another try later.
import type { LookupOutcome } from '../marketplaces/types.ts';
import { retryDelayMs, type BackoffPolicy } from './backoff.ts';
import type { ClaimedRow, FinishedRow, RequeuedRow } from './queue.ts';

export type Settled = { finished: FinishedRow } | { requeued: RequeuedRow };

export function settle(row: ClaimedRow, outcome: LookupOutcome, maxAttempts: number, backoff: BackoffPolicy): Settled {
  const { id, attempts } = row;
  switch (outcome.kind) {
    case 'completed':
      return { finished: { id, attempts, status: 'completed', last_error: null, offers: outcome.offers, record: outcome.record } };
    case 'no_offers':
      return {
        finished: {
          id,
          attempts,
          status: 'no_offers_available',
          last_error: outcome.reason ?? null,
          offers: [],
          record: outcome.record ?? null,
        },
      };
    case 'failed':
      return { finished: { id, attempts, status: 'failed', last_error: outcome.message, offers: null, record: null } };
    case 'retry':
      if (attempts >= maxAttempts) {
        const last_error = `${outcome.reason} (gave up after ${attempts} attempts)`;
        return { finished: { id, attempts, status: 'failed', last_error, offers: null, record: null } };
      }
      return { requeued: { id, attempts, last_error: outcome.reason, delay_ms: retryDelayMs(attempts, backoff, outcome.retryAfterMs) } };
  }
}
