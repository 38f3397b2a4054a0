// Big jobs being written in steps on the embedded database, for the in-process worker to give way to.
// PGlite is one connection on the API's thread: every claim, write-back and rate slot the worker
// runs while a 150k-ISBN list is written is a statement the list's steps (and every request) wait
// behind. Measured (issue 29, npm run bench -- big-paste): 150k × 4 stored in 188 s with the worker
// claiming throughout, against about 30 s with it off.

export class WritesInProgress {
  private running = 0;
  private waiters: Array<() => void> = [];

  /** Runs `write`, counted as in progress until it settles. */
  async during<T>(write: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await write();
    } finally {
      this.running--;
      if (this.running === 0) for (const resolve of this.waiters.splice(0)) resolve();
    }
  }

  /** Whether a write is in progress now. */
  get writing(): boolean {
    return this.running > 0;
  }

  /** Resolves at once when nothing is being written, else when the last write in progress ends. */
  none(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
