// Batch marketplaces (Amazon: 20 ISBNs per request) on both engines: the claim takes one fair batch
// of one marketplace, the worker sends it as one request per operation, and every lookup of the
// batch settles on its own outcome.
import { sql } from 'drizzle-orm';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOT_IN_CATALOG } from '../marketplaces/amazon/client.ts';
import { startMarketplaceSandbox } from '../marketplaces/sandbox.ts';
import { sampleIsbns } from '../sandbox/isbns.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { jobs, marketplaceRateSlots } from '../db/schema.ts';
import { lookupRows, openWorkerTestDatabase, sandboxWorkerParts, seedJob, type TestDatabase } from '../../test/helpers/worker.ts';
import { LookupQueue } from './queue.ts';
import { startWorker } from './worker.ts';
import { ENGINES } from '../../test/helpers/databases.ts';

describe.each(ENGINES)('batch marketplaces on %s', (kind) => {
  let t: TestDatabase;
  let sandbox: Sandbox | undefined;

  beforeAll(async () => {
    t = await openWorkerTestDatabase(kind);
  });
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    await t.db.delete(jobs);
  });
  afterAll(() => t?.cleanup());

  it('a claim of 20 takes due Amazon lookups only, dealt fairly across the jobs', async () => {
    const big = await seedJob(t.db, sampleIsbns(40, 1000), ['amazon', 'abe_books']);
    const small = await seedJob(t.db, sampleIsbns(5, 2000), ['amazon']);
    const other = await seedJob(t.db, sampleIsbns(5, 3000), ['amazon']);
    const claimed = await new LookupQueue(t.db, MARKETPLACES.amazon).claim(20, 60_000);
    expect(claimed).toHaveLength(20);
    const jobOf = async (id: number) =>
      (await t.db.execute<{ job: number }>(sql`SELECT isbn_lookup_job_id AS job FROM amazon_price_lookups WHERE id = ${id}`)).rows[0]?.job;
    const perJob = new Map<number, number>();
    for (const row of claimed) {
      const job = await jobOf(row.id);
      perJob.set(job ?? -1, (perJob.get(job ?? -1) ?? 0) + 1);
    }
    // Round-robin: both small jobs whole, the big one the rest; AbeBooks' rows untouched.
    expect(Object.fromEntries(perJob)).toEqual({ [big]: 10, [small]: 5, [other]: 5 });
    const abe = await lookupRows(t.db, 'abe_books', big);
    expect(abe.every((r) => r.lookup_status === 'queued')).toBe(true);
  });

  it('sends one catalog and one offers request per claimed batch, each row settled on its own outcome', async () => {
    sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0.3, failIsbns: { '9780306406157': 99 } });
    const isbns = [...sampleIsbns(43, 7000), '9780306406157', '97801'];
    const first = await seedJob(t.db, isbns.slice(0, 25), ['amazon']);
    const second = await seedJob(t.db, isbns.slice(25), ['amazon']);
    const parts = sandboxWorkerParts(sandbox, ['amazon'], { concurrency: 1 });
    const worker = startWorker({ db: t.db, pollIntervalMs: 20, ...parts, reuseWindowMs: 0 });
    await worker.idle();
    await worker.stop();

    const rows = [...(await lookupRows(t.db, 'amazon', first)), ...(await lookupRows(t.db, 'amazon', second))];
    expect(rows).toHaveLength(45);
    for (const row of rows) {
      expect(row.attempts, row.isbn).toBe(1);
      if (row.isbn === '97801') {
        // Not in Amazon's catalog: an answer (no offers) with its reason.
        expect(row.lookup_status).toBe('no_offers_available');
        expect(row.last_error).toBe(NOT_IN_CATALOG);
        expect(row.asin).toBeNull();
        continue;
      }
      if (row.isbn === '9780306406157') {
        // Refused inside the offers batch's 200: this lookup alone fails, with Amazon's message.
        expect(row.lookup_status).toBe('failed');
        expect(row.last_error).toBe('Amazon answered HTTP 400: InvalidInput: Invalid Input');
        continue;
      }
      expect(['completed', 'no_offers_available']).toContain(row.lookup_status);
      // Known to the catalog either way: its ASIN and title are kept even without offers.
      expect(row.asin, row.isbn).not.toBeNull();
      expect(row.title, row.isbn).not.toBeNull();
      if (row.lookup_status === 'completed') {
        expect(row.offers!.length).toBeGreaterThan(0);
        expect(typeof row.lowest_used_price).toBe('number');
      }
    }
    expect(rows.some((r) => r.lookup_status === 'completed')).toBe(true);
    expect(rows.some((r) => typeof r.sales_rank === 'number')).toBe(true);
    // 45 ISBNs in claims of at most 20: 3 batches, each one catalog and one offers request, plus one token exchange.
    expect(sandbox.stats().byMarketplace.amazon.requests).toBe(1 + 3 * 2);
    // Each operation has its own slot, shared by every worker.
    const slots = await t.db.select({ key: marketplaceRateSlots.marketplace }).from(marketplaceRateSlots);
    expect(slots.map((s) => s.key)).toEqual(expect.arrayContaining(['amazon:catalog', 'amazon:offers']));
  });
});
