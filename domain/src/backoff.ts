// The one exponential backoff: the worker's retries, the database listener's reconnects, the live
// stream's reconnects and the browser's query retries all wait `base · 2^(step − 1)`, capped.

/** `baseMs` at step 1 (and below), doubled with each further step, never more than `maxMs`. */
export function doublingDelayMs(step: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, step - 1));
}
