// The shared HTTP helper's cap on answers: a marketplace sending more than MARKETPLACE_MAX_RESPONSE_BYTES
// fails the lookup with a clear message, and the client stops reading (the rest is never downloaded).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testSettings } from '../../test/helpers/http-contract.ts';
import { createAmazonAdapter } from './amazon/client.ts';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../lib/capped-body.ts';
import { httpAdapter, timedFetch, type WireFormat } from './http.ts';

const MB = 1024 * 1024;
const signal = new AbortController().signal;

/** How the server answers: `size` bytes of a JSON-looking body, streamed in 64 KB chunks, with or without Content-Length. */
let answer = { size: 0, declareLength: false };
/** Bytes the server managed to write per request before the client hung up (or all of them). */
const written: number[] = [];
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/auth/o2/token') {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ access_token: 'Atza|t', token_type: 'bearer', expires_in: 3600 }));
    }
    const { size, declareLength } = answer;
    res.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': String(size) } : {}) });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const record = () => written.push(sent);
    res.once('close', record);
    const pump = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!res.write(part)) return void res.once('drain', pump);
      }
      res.end();
    };
    req.resume();
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const plainJson: WireFormat = {
  request: () => ({ url: `${base}/search` }),
  parse: () => ({ kind: 'no_offers', offers: [] }),
};

describe('the answer size cap', () => {
  it('an answer streamed past the cap fails the lookup, and the rest is never read', async () => {
    answer = { size: 64 * MB, declareLength: false };
    written.length = 0;
    const adapter = httpAdapter('alibris', testSettings(base, { timeoutMs: 20_000, maxResponseBytes: MB }), plainJson);
    expect(await adapter.lookup('9780131457577', { signal })).toEqual({
      kind: 'failed',
      message: 'Marketplace answer larger than 1 MB (MARKETPLACE_MAX_RESPONSE_BYTES): not read',
    });
    await expect.poll(() => written.length).toBe(1);
    // Socket buffers hold a few MB at most: nowhere near the 64 MB the server meant to send.
    expect(written[0]).toBeLessThan(16 * MB);
  });

  it('a declared Content-Length over the cap fails before reading the body', async () => {
    answer = { size: 3 * MB, declareLength: true };
    const outcome = await timedFetch(`${base}/x`, {}, 20_000, signal, 2 * MB);
    // Compared by what was read, not the body itself (a failing diff of megabytes would stall the report).
    expect('outcome' in outcome ? outcome.outcome : { read: outcome.body.length }).toEqual({
      kind: 'failed',
      message: 'Marketplace answer larger than 2 MB (MARKETPLACE_MAX_RESPONSE_BYTES): not read',
    });
  });

  it('an answer within the cap is read whole; the default cap is far above any real answer', async () => {
    answer = { size: MB, declareLength: false };
    const outcome = await timedFetch(`${base}/x`, {}, 20_000, signal, MB);
    expect('body' in outcome && outcome.body.length).toBe(MB);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBeGreaterThanOrEqual(8 * MB);
  });

  it("a batch marketplace's oversized answer fails every lookup of the batch (Amazon's catalog)", async () => {
    answer = { size: 4 * MB, declareLength: false };
    const adapter = createAmazonAdapter(
      testSettings(base, {
        credential: 'Atzr|refresh',
        maxResponseBytes: 2 * MB,
        extra: { AMAZON_CLIENT_ID: 'id', AMAZON_CLIENT_SECRET: 'secret', AMAZON_LWA_URL: base },
      }),
    );
    const outcomes = await adapter.lookupBatch?.(['9780131457577', '9780306406157'], { signal, pace: async () => {} });
    expect(outcomes).toEqual(
      [0, 1].map(() => ({ kind: 'failed', message: 'Marketplace answer larger than 2 MB (MARKETPLACE_MAX_RESPONSE_BYTES): not read' })),
    );
  });
});
