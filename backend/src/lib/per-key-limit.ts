// At most `max` tasks at once per key (a user): one client cannot take every shared slot however
// many requests it opens. Per process, like the gates it sits in front of.

export class PerKeyLimit {
  private readonly running = new Map<string, number>();

  constructor(readonly max: number) {}

  /** False when `key` already runs `max` tasks; otherwise counts one more until `leave`. */
  tryEnter(key: string): boolean {
    const n = this.running.get(key) ?? 0;
    if (n >= this.max) return false;
    this.running.set(key, n + 1);
    return true;
  }

  leave(key: string): void {
    const n = (this.running.get(key) ?? 1) - 1;
    if (n <= 0) this.running.delete(key);
    else this.running.set(key, n);
  }
}
