// Book details on both engines: the worker's fetcher asks the sandbox's Open Library for the ISBNs of
// new jobs in bounded batches, keeps them per ISBN (refreshed only when old), and the comparison (its
// title, author, publisher and year; marketplaces' titles filling in) and the book page show them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BookDetailsFetcher, EMPTY_BATCH_RETRY_MS } from '../src/book-details/fetcher.ts';
import { bookDetailsSettings, bookDetailsConfigSection } from '../src/book-details/options.ts';
import { detailsOf } from '../src/book-details/repository.ts';
import { knownToOpenLibrary } from '../src/book-details/sandbox-format.ts';
import { readBook } from '../src/books/repository.ts';
import { comparisonTable } from '../src/comparison/query.ts';
import { parseConfig } from '../src/core/config.ts';
import { bookDetails, jobs, users } from '../src/db/schema.ts';
import { feeSchedulesInForce } from '../src/fees/repository.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { startWorker } from '../src/worker/worker.ts';
import { lookupRows, openWorkerTestDatabase, sandboxWorkerParts, seedJob, workerTestLog, type TestDatabase } from './helpers/worker.ts';
import { ENGINES } from './helpers/databases.ts';

describe('book details settings', () => {
  const config = (env: NodeJS.ProcessEnv) => parseConfig({ bookDetails: bookDetailsConfigSection }, env).bookDetails;

  it('asks the sandbox when every marketplace is simulated, openlibrary.org otherwise, OPENLIBRARY_URL always', () => {
    expect(bookDetailsSettings(config({}), 'http://127.0.0.1:8090/', true)).toMatchObject({
      url: 'http://127.0.0.1:8090/openlibrary',
      batchSize: 50,
      ratePerSecond: 1,
      refreshMs: 90 * 86_400_000,
    });
    expect(bookDetailsSettings(config({}), 'http://127.0.0.1:8090', false)?.url).toBe('https://openlibrary.org');
    expect(bookDetailsSettings(config({ OPENLIBRARY_URL: 'http://mirror.test/' }), 'http://s', true)?.url).toBe('http://mirror.test');
    expect(bookDetailsSettings(config({ BOOK_DETAILS_REFRESH: '30d', BOOK_DETAILS_BATCH_SIZE: '20' }), 'http://s', true)).toMatchObject({
      refreshMs: 30 * 86_400_000,
      batchSize: 20,
    });
    expect(bookDetailsSettings(config({ BOOK_DETAILS: 'false' }), 'http://s', true)).toBeUndefined();
    expect(() => config({ BOOK_DETAILS_BATCH_SIZE: '500', BOOK_DETAILS_REFRESH: 'often' })).toThrow(
      /BOOK_DETAILS_BATCH_SIZE[\s\S]*BOOK_DETAILS_REFRESH|BOOK_DETAILS_REFRESH[\s\S]*BOOK_DETAILS_BATCH_SIZE/,
    );
  });
});

describe.each(ENGINES)('book details on %s', (kind) => {
  let t: TestDatabase;
  let sandbox: Sandbox;
  const fetcherFor = (batchSize: number) =>
    new BookDetailsFetcher(
      t.db,
      { url: `${sandbox.url}/openlibrary`, userAgent: 'test', timeoutMs: 5000, batchSize, ratePerSecond: 1000, refreshMs: 86_400_000 },
      workerTestLog,
    );
  const drain = async (f: BookDetailsFetcher) => {
    while (await f.pass()) {}
  };
  const jobWith = async (isbns: string[]) => {
    const id = await seedJob(t.db, isbns, ['abe_books', 'ebay']);
    await t.db.update(jobs).set({ abe_books: true, ebay: true }).where(eq(jobs.id, id));
    return id;
  };

  beforeAll(async () => {
    t = await openWorkerTestDatabase(kind);
    sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0 });
  });
  afterEach(async () => {
    await t.db.delete(jobs);
    await t.db.delete(bookDetails);
  });
  afterAll(async () => {
    await sandbox?.close();
    await t?.cleanup();
  });

  it('fetches every ISBN of a new job in batches of the configured size, keeps found and unknown ones, and asks no more', async () => {
    const isbns = sampleIsbns(7, 52_000);
    await jobWith(isbns);
    const fetcher = fetcherFor(3);
    await drain(fetcher);
    expect(fetcher.requests).toBe(3); // 3 + 3 + 1
    const stored = await detailsOf(t.db, isbns);
    expect(stored).toHaveLength(7);
    for (const row of stored) {
      expect(row.found, row.isbn).toBe(knownToOpenLibrary(row.isbn));
      if (row.found)
        expect(row).toMatchObject({ title: expect.any(String), authors: expect.any(String), publish_year: expect.any(Number) });
    }
    expect(await fetcher.pass()).toBe(false);
    // A new job with one known and one new ISBN asks only the new one.
    const fresh = sampleIsbns(1, 53_000);
    await jobWith([isbns[0]!, ...fresh]);
    await drain(fetcher);
    expect(fetcher.requests).toBe(4);
    expect(await detailsOf(t.db, fresh)).toHaveLength(1);
  });

  it('a batch Open Library keeps answering {} is put off for an hour, not stored as "not found" for the refresh period', async () => {
    // Open Library failing inside: HTTP 200 and an empty object, to every request.
    let asked = 0;
    const failing = http.createServer((req, res) => {
      asked++;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const isbns = sampleIsbns(3, 56_000);
      const known = isbns.find(knownToOpenLibrary)!;
      await jobWith(isbns);
      // One of them was found before: a failing answer must not wipe its details.
      await drain(fetcherFor(10));
      const [before] = await detailsOf(t.db, [known]);
      await t.db.update(bookDetails).set({ fetched_at: sql`now() - interval '2 days'` });
      const refreshMs = 86_400_000;
      const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
      const fetcher = new BookDetailsFetcher(
        t.db,
        { url, userAgent: 'test', timeoutMs: 5000, batchSize: 10, ratePerSecond: 1000, refreshMs },
        workerTestLog,
        2000,
        1,
      );
      expect(await fetcher.pass()).toBe(true);
      expect(asked).toBe(3); // EMPTY_BATCH_ATTEMPTS, a short pause apart
      expect(fetcher.postponed).toBe(3);
      const stored = await detailsOf(t.db, isbns);
      expect(stored).toHaveLength(3);
      for (const row of stored) {
        // Due again in an hour: dated refresh − 1 h ago, so it falls due when the hour is up.
        const dueInMs = row.fetched_at.getTime() + refreshMs - Date.now();
        expect(dueInMs, row.isbn).toBeGreaterThan(EMPTY_BATCH_RETRY_MS - 600_000);
        expect(dueInMs, row.isbn).toBeLessThanOrEqual(EMPTY_BATCH_RETRY_MS + 1000);
      }
      expect(stored.find((r) => r.isbn === known)).toMatchObject({ found: true, title: before!.title });
      // Nothing more to ask until then.
      expect(await fetcher.pass()).toBe(false);
    } finally {
      await new Promise<void>((resolve) => failing.close(() => resolve()));
    }
  });

  it('details older than the refresh period are fetched again when a job has the ISBN, fresh ones are not', async () => {
    const isbns = sampleIsbns(2, 54_000);
    await jobWith(isbns);
    await drain(fetcherFor(10));
    await t.db.update(bookDetails).set({ fetched_at: sql`now() - interval '2 days'` }).where(eq(bookDetails.isbn, isbns[0]!));
    const again = fetcherFor(10);
    await drain(again);
    expect(again.requests).toBe(1);
    const [refreshed] = await detailsOf(t.db, [isbns[0]!]);
    expect(Date.now() - refreshed!.fetched_at.getTime()).toBeLessThan(86_400_000);
  });

  it('the worker fetches them in the background; the comparison and the book page show them, marketplaces titles filling in', async () => {
    const isbns = sampleIsbns(12, 55_000);
    const known = isbns.find(knownToOpenLibrary)!;
    const unknown = isbns.find((i) => !knownToOpenLibrary(i))!;
    const jobId = await jobWith(isbns);
    const worker = startWorker({
      db: t.db,
      pollIntervalMs: 20,
      ...sandboxWorkerParts(sandbox, ['abe_books']),
      bookDetails: {
        url: `${sandbox.url}/openlibrary`,
        userAgent: 'test',
        timeoutMs: 5000,
        batchSize: 5,
        ratePerSecond: 1000,
        refreshMs: 86_400_000,
      },
    });
    try {
      await worker.idle();
      await expect.poll(async () => (await detailsOf(t.db, isbns)).length, { timeout: 10_000, interval: 50 }).toBe(12);
    } finally {
      await worker.stop();
    }
    const [job] = await t.db.select().from(jobs).where(eq(jobs.id, jobId));
    const { rows } = await t.db.execute<Record<string, unknown>>(
      sql`SELECT * FROM ${comparisonTable(job!, { fees: await feeSchedulesInForce(t.db) })}`,
    );
    const byIsbn = new Map(rows.map((r) => [r.isbn, r]));
    const [details] = await detailsOf(t.db, [known]);
    expect(byIsbn.get(known)).toMatchObject({
      title: details!.title,
      author: details!.authors,
      publisher: details!.publisher,
      publish_year: details!.publish_year,
    });
    // Open Library does not know it: AbeBooks' title fills in; no author, publisher or year from Open Library.
    const abeTitle = (await lookupRows(t.db, 'abe_books', jobId)).find((r) => r.isbn === unknown)?.title;
    expect(byIsbn.get(unknown)).toMatchObject({ title: abeTitle, author: null, publisher: null, publish_year: null });

    const [owner] = await t.db.select().from(users).where(eq(users.id, job!.owner_id));
    const page = await readBook(t.db, owner!, known);
    expect(page).toMatchObject({
      title: details!.title,
      author: details!.authors,
      details: { publisher: details!.publisher, publish_year: details!.publish_year, source: 'Open Library' },
    });
    expect((await readBook(t.db, owner!, unknown)).details).toBeNull();
  });
});
