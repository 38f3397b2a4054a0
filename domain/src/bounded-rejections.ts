// An upload's rejected values, bounded. A list of junk must not become millions of stored rows,
// and a few enormous cells must not become a response of hundreds of megabytes: the first `max`
// rejections are kept, each value cut to a readable length, and the rest are only counted.

/** Characters of a rejected value kept: enough to find the cell, never a whole pasted novel. */
export const REJECTED_VALUE_MAX_CHARS = 100;

/** The value as kept: whole when short, else its start and how long it was. */
export function clipRejectedValue(raw: string): string {
  if (raw.length <= REJECTED_VALUE_MAX_CHARS) return raw;
  return `${raw.slice(0, REJECTED_VALUE_MAX_CHARS)}… (${raw.length.toLocaleString('en-US')} characters)`;
}

export class BoundedRejections<T> {
  readonly kept: T[] = [];
  /** Rejections seen after `max` were kept. */
  notKept = 0;
  private readonly max: number;

  // A plain field, not a parameter property: the backend's parsing thread runs this file with Node's
  // own type stripping when started from the sources, which takes no such syntax.
  constructor(max: number) {
    this.max = max;
  }

  add(item: T): void {
    if (this.kept.length < this.max) this.kept.push(item);
    else this.notKept++;
  }

  get total(): number {
    return this.kept.length + this.notKept;
  }
}
