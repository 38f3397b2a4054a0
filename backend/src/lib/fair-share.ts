// Requests in flight per key (a user): past `maxRunning`, a key's further requests wait their turn in
// its own line, so a script firing many requests at once holds only a few of the process's turns on
// the event loop and the database, and everyone else's requests are never queued behind its flood.
// Past `maxWaiting` waiting, the key is refused (the caller answers 429). Per process.

export type Release = () => void;

interface Line {
  running: number;
  waiting: Array<(release: Release) => void>;
}

export class FairShare {
  private readonly lines = new Map<string, Line>();

  constructor(
    readonly maxRunning: number,
    readonly maxWaiting: number,
  ) {}

  /**
   * A turn for `key`: resolves with its release (call it once, when the request is over) as soon as
   * the key runs fewer than `maxRunning`; undefined at once when `maxWaiting` already wait.
   */
  enter(key: string): Promise<Release> | undefined {
    const line = this.lines.get(key) ?? { running: 0, waiting: [] };
    this.lines.set(key, line);
    if (line.running < this.maxRunning) {
      line.running++;
      return Promise.resolve(this.releaseOf(key, line));
    }
    if (line.waiting.length >= this.maxWaiting) return undefined;
    return new Promise((resolve) => line.waiting.push(resolve));
  }

  /** Requests of `key` running and waiting (for tests and metrics). */
  load(key: string): { running: number; waiting: number } {
    const line = this.lines.get(key);
    return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  private releaseOf(key: string, line: Line): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = line.waiting.shift();
      // The turn passes straight to the next in line, so a newcomer cannot jump it.
      if (next) next(this.releaseOf(key, line));
      else if (--line.running === 0) this.lines.delete(key);
    };
  }
}
