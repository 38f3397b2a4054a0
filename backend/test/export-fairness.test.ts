// One user's CSV downloads cannot turn everyone else's away (issue 20), on both engines: each user
// runs at most EXPORT_MAX_PER_USER at once, and a download read at a crawl (or not at all) is ended,
// giving its slot back. Before, the embedded database had no limit at all.
import { sql } from 'drizzle-orm';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';

// Rows of about 1 kB: a download of them does not fit in the socket buffers.
const ROWS = 5_000;
const URL_PATH = '/api/v1/abe-books/price-lookups/download-csv';

describe.each(ENGINES)('CSV downloads shared fairly on %s', (engine) => {
  let t: TestApp;
  let base: string;
  let heavy: { id: string; token: string };
  let other: { id: string; token: string };
  const open: http.ClientRequest[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine, {
      env: { EXPORT_MAX_CONCURRENT: '3', EXPORT_MAX_PER_USER: '1', EXPORT_STALL_TIMEOUT_MS: '1000', EXPORT_MIN_BYTES_PER_SECOND: '200000' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    heavy = await createUser(t, 'heavy-exporter@example.com');
    other = await createUser(t, 'other-exporter@example.com');
    const job = await t.ctx.db.execute<{ id: number }>(
      sql`INSERT INTO jobs (name, input_filename, owner_id, abe_books) VALUES ('big', 'big.csv', ${heavy.id}, true) RETURNING id`,
    );
    await t.ctx.db.execute(
      sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, input_filename, lookup_status, listing_url)
       SELECT ${job.rows[0]!.id}::int, lpad(g::text, 13, '9'), 'big.csv', 'completed', 'https://www.abebooks.com/x?bi=' || g || repeat('x', 1000)
       FROM generate_series(1, ${ROWS}::int) g`,
    );
  }, 120_000);
  afterAll(async () => {
    for (const req of open) req.destroy();
    await t.close();
  });

  /** Starts a download and hands back its status and response, unread (paused). */
  const startDownload = (token: string) =>
    new Promise<{ status: number; res: http.IncomingMessage }>((resolve, reject) => {
      const req = http.request(`${base}${URL_PATH}`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' } });
      req.on('response', (res) => {
        res.pause();
        resolve({ status: res.statusCode ?? 0, res });
      });
      req.on('error', reject);
      req.end('{"filters":[]}');
      open.push(req);
    });

  const download = async (token: string) => {
    const res = await fetch(`${base}${URL_PATH}`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: '{"filters":[]}',
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
  };

  /** Reads `res` a few bytes at a time; resolves with what arrived once the server ends it. */
  const crawl = (res: http.IncomingMessage) =>
    new Promise<{ bytes: number; complete: boolean }>((resolve) => {
      let bytes = 0;
      const timer = setInterval(() => {
        const chunk = res.read(64) as Buffer | null;
        if (chunk) bytes += chunk.length;
      }, 50);
      const done = () => {
        clearInterval(timer);
        resolve({ bytes, complete: res.complete });
      };
      res.once('close', done);
      res.once('error', done);
    });

  it("a user's second download waits its turn (429); another user's goes through; a crawling one is ended", async () => {
    const first = await startDownload(heavy.token);
    expect(first.status).toBe(200);

    const second = await download(heavy.token);
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe('10');
    expect(JSON.parse(second.body)).toEqual({ detail: 'You already have a CSV download running. Please try again when it has finished.' });

    const theirs = await download(other.token);
    expect(theirs.status).toBe(200);

    // Read at ~1 kB/s against a minimum of 200 kB/s: the server ends it and its slot comes back,
    // while the client is still reading what its buffers hold.
    const crawled = crawl(first.res);
    let again = 0;
    for (let i = 0; i < 40 && again !== 200; i++) {
      again = (await download(heavy.token)).status;
      if (again !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(again).toBe(200);
    first.res.destroy();
    const { bytes, complete } = await crawled;
    expect(complete).toBe(false);
    expect(bytes).toBeLessThan(ROWS * 1000);
  }, 60_000);
});
