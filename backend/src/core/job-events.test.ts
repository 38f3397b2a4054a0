// The NOTIFY payload of job events: split under PostgreSQL's 8000-byte limit, read back whole.
import { describe, expect, it } from 'vitest';
import { decodeJobChanges, encodeJobChanges } from './job-events.ts';

describe('job event payloads', () => {
  it('round-trips ids and owners, splitting big flushes into payloads PostgreSQL accepts', () => {
    const changes = Array.from({ length: 3000 }, (_, i) =>
      i % 7 ? { id: i + 1 } : { id: i + 1, owner: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` },
    );
    const chunks = encodeJobChanges(changes);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(Buffer.byteLength(c)).toBeLessThan(8000);
    expect(chunks.flatMap(decodeJobChanges)).toEqual(changes);
  });

  it('refuses malformed payloads instead of guessing', () => {
    expect(() => decodeJobChanges('{"ids":[1]}')).toThrow(/not a list/);
    expect(() => decodeJobChanges('[1,"x"]')).toThrow(/malformed/);
    expect(() => decodeJobChanges('not json')).toThrow();
  });
});
