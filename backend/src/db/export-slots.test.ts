// The download slots judge a download by what its client took from the connection (issue 29), and
// never let one user hold them all.
import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../lib/http-errors.ts';
import { ExportSlots, perUserShare } from './export-slots.ts';

const WINDOW_MS = 200;
const MIN_BYTES_PER_SECOND = 100_000;
const CHUNK = Buffer.alloc(16 * 1024, 'x');

/** A connection as the slots see it: what was written to it, and what of that is still in its buffer. */
const connection = () => ({ bytesWritten: 0, writableLength: 0 });

/** An export that never ends: a chunk whenever one is asked for. */
const endless = () =>
  new Readable({
    read() {
      this.push(CHUNK);
    },
  });

/** Writes what `stream` gives into `conn`'s buffer at once; `leaves` says how much of it then goes out to the client. */
function deliver(stream: Readable, conn: { bytesWritten: number; writableLength: number }, leaves: (bytes: number) => number) {
  stream.pipe(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        conn.bytesWritten += chunk.length;
        conn.writableLength += chunk.length - leaves(chunk.length);
        setTimeout(done, 5);
      },
    }),
  );
}

describe('ExportSlots', () => {
  it('ends a download whose socket takes everything but whose client takes nothing, and gives its slot back', async () => {
    const slots = new ExportSlots({ maxConcurrent: 1, maxPerUser: 1, windowMs: WINDOW_MS, minBytesPerSecond: MIN_BYTES_PER_SECOND });
    const conn = connection();
    const stream = await slots.run('reader', conn, async () => endless());
    // ~3 MB/s handed to the socket's buffer, far over the minimum: none of it read by the client.
    deliver(stream, conn, () => 0);
    await expect(finished(stream)).rejects.toThrow(/the client took 0 bytes/);
    const next = await slots.run('someone else', connection(), async () => Readable.from(['done']));
    expect(Buffer.concat(await next.toArray()).toString()).toBe('done');
  });

  it('lets a download whose client keeps taking its bytes run on', async () => {
    const slots = new ExportSlots({ maxConcurrent: 1, maxPerUser: 1, windowMs: WINDOW_MS, minBytesPerSecond: MIN_BYTES_PER_SECOND });
    const conn = connection();
    // 200 chunks at ~16 kB every 5 ms: about a second, several windows.
    const stream = await slots.run('reader', conn, async () => Readable.from(Array.from({ length: 200 }, () => CHUNK)));
    deliver(stream, conn, (bytes) => bytes);
    await expect(finished(stream)).resolves.toBeUndefined();
  });

  it('counts a big chunk as it leaves, not only once all of it has: a client reading over the minimum runs on', async () => {
    const slots = new ExportSlots({ maxConcurrent: 1, maxPerUser: 1, windowMs: WINDOW_MS, minBytesPerSecond: MIN_BYTES_PER_SECOND });
    const conn = connection();
    // One 512 kB page, taken by the client at ~300 kB/s, three times the minimum: as a single write it
    // would leave the buffer only after ~1.7 s, and every window before that would count nothing.
    const page = Buffer.alloc(512 * 1024, 'x');
    // The export ends a little before the client has all of it, so it is judged all the while.
    const source = new Readable({ read() {} });
    source.push(page);
    setTimeout(() => source.push(null), 1_200);
    const stream = await slots.run('reader', conn, async () => source);
    stream.pipe(
      new Writable({
        write(chunk: Buffer, _enc, done) {
          conn.bytesWritten += chunk.length;
          conn.writableLength += chunk.length;
          setTimeout(
            () => {
              conn.writableLength -= chunk.length;
              done();
            },
            (chunk.length / 300_000) * 1000,
          );
        },
      }),
    );
    await expect(finished(stream)).resolves.toBeUndefined();
  });

  it('never gives one user every slot', async () => {
    expect(perUserShare({ maxConcurrent: 4, maxPerUser: 4 })).toBe(3);
    expect(perUserShare({ maxConcurrent: 4, maxPerUser: 2 })).toBe(2);
    expect(perUserShare({ maxConcurrent: 1, maxPerUser: 3 })).toBe(1);
    const slots = new ExportSlots({ maxConcurrent: 2, maxPerUser: 5, windowMs: 60_000, minBytesPerSecond: 0 });
    const held = await slots.run('greedy', connection(), async () => endless());
    const refused = slots.run('greedy', connection(), async () => endless());
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toMatchObject({ statusCode: 429 });
    const other = await slots.run('other', connection(), async () => endless());
    held.destroy();
    other.destroy();
  });
});
