// At most `max` tasks at once; later ones wait in line up to `maxWaitMs`, then are turned away.
// Bounds work whose cost is memory (upload parses), so memory stays bounded whatever clients send.

export class GateFullError extends Error {
  override readonly name = 'GateFullError';
}

export class Gate {
  private running = 0;
  private readonly waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = [];

  constructor(
    readonly max: number,
    readonly maxWaitMs: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await task();
    } finally {
      this.leave();
    }
  }

  /** Takes a slot (waiting in line up to maxWaitMs, else GateFullError); give it back with `leave`. */
  enter(): Promise<void> {
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        start: () => {
          clearTimeout(entry.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(new GateFullError(`still busy after ${this.maxWaitMs} ms`));
        }, this.maxWaitMs),
      };
      this.waiting.push(entry);
    });
  }

  leave(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next in line; `running` stays the same.
    if (next) next.start();
    else this.running--;
  }
}
