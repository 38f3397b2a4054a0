// The daily call budget (eBay's 5,000 calls a day) on both engines: counted across workers, lookups
// waiting for the reset instead of failing, and resuming once the quota's day has turned.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { BOOK_PAGE_FILENAME } from '@app/domain/book';
import { jobProgress, jobs, marketplaceDailyCalls } from '../db/schema.ts';
import { jobSummary } from '../jobs/summary.ts';
import { startMarketplaceSandbox } from '../marketplaces/sandbox.ts';
import { sampleIsbns } from '../sandbox/isbns.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { lookupRows, openWorkerTestDatabase, sandboxWorkerParts, seedJob, seedUser, type TestDatabase } from '../../test/helpers/worker.ts';
import { DailyCallBudget, SHARE_RECHECK_MS, quotaDay, quotaNote, quotaTimeZoneOf } from './daily-budget.ts';
import { startWorker, type Worker } from './worker.ts';
import { ENGINES } from '../../test/helpers/databases.ts';

const EBAY_ZONE = quotaTimeZoneOf('ebay');

describe('the quota day (eBay resets at midnight Pacific)', () => {
  it('is declared by eBay’s registry entry; a marketplace declaring none counts UTC days', () => {
    expect(EBAY_ZONE).toBe('America/Los_Angeles');
    expect(quotaTimeZoneOf('alibris')).toBe('UTC');
    expect(quotaDay(new Date('2026-11-24T23:59:59Z'), 'UTC')).toEqual({ day: '2026-11-24', resetsAt: new Date('2026-11-25T00:00:00Z') });
    // A zone east of UTC with daylight saving: Berlin's clocks went back at 03:00 on 2026-10-25.
    expect(quotaDay(new Date('2026-10-24T22:30:00Z'), 'Europe/Berlin')).toEqual({
      day: '2026-10-25',
      resetsAt: new Date('2026-10-25T23:00:00Z'),
    });
  });

  it.each([
    ['2026-11-24T07:59:59Z', '2026-11-23', '2026-11-24T08:00:00.000Z'], // PST: UTC-8
    ['2026-11-24T08:00:00Z', '2026-11-24', '2026-11-25T08:00:00.000Z'],
    ['2026-07-01T06:59:00Z', '2026-06-30', '2026-07-01T07:00:00.000Z'], // PDT: UTC-7
    ['2026-03-08T12:00:00Z', '2026-03-08', '2026-03-09T07:00:00.000Z'], // clocks went forward at 02:00 that day
    ['2026-11-01T12:00:00Z', '2026-11-01', '2026-11-02T08:00:00.000Z'], // and back
  ])('%s is Pacific day %s, whose quota resets at %s', (at, day, resetsAt) => {
    const q = quotaDay(new Date(at), 'America/Los_Angeles');
    expect(q.day).toBe(day);
    expect(q.resetsAt.toISOString()).toBe(resetsAt);
  });
});

describe.each(ENGINES)('daily call budget on %s', (kind) => {
  let t: TestDatabase;
  let sandbox: Sandbox;
  const workers: Worker[] = [];
  const isDone = (s: string) => s === 'completed' || s === 'no_offers_available';

  beforeAll(async () => {
    t = await openWorkerTestDatabase(kind);
    sandbox = await startMarketplaceSandbox({ latencyMs: 0 });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await t.db.delete(jobs);
    await t.db.delete(marketplaceDailyCalls);
  });
  afterAll(async () => {
    await sandbox?.close();
    await t?.cleanup();
  });

  const ebayCalls = () => sandbox.stats().byMarketplace.ebay.requests;
  const startEbayWorker = (budget: number, clock: () => Date) => {
    const worker = startWorker({
      db: t.db,
      pollIntervalMs: 20,
      clock,
      ...sandboxWorkerParts(sandbox, ['ebay'], { dailyCallBudget: budget }),
    });
    workers.push(worker);
    return worker;
  };

  it('two budget holders together never take more than the budget', async () => {
    const now = () => new Date();
    const jobId = await seedJob(t.db, sampleIsbns(20, 11_000), ['ebay']);
    const a = new DailyCallBudget(t.db, 'ebay', 5, 0, now);
    const b = new DailyCallBudget(t.db, 'ebay', 5, 0, now);
    const answers = await Promise.all([...Array(8)].flatMap(() => [a.take(jobId), b.take(jobId)]));
    expect(answers.filter((x) => x.ok)).toHaveLength(5);
    const refused = answers.filter((x) => !x.ok);
    expect(refused.map((x) => !x.ok && x.resumesAt.toISOString())).toEqual(
      refused.map(() => quotaDay(now(), EBAY_ZONE).resetsAt.toISOString()),
    );
  });

  // Issue 29: one user's big job spent the team's day, and another user's one lookup waited for the reset.
  describe('shared between users', () => {
    const now = () => new Date();
    const takes = async (budget: DailyCallBudget, jobId: number, n: number) => {
      const answers = [];
      for (let i = 0; i < n; i++) answers.push(await budget.take(jobId));
      return answers;
    };
    const okCount = (answers: { ok: boolean }[]) => answers.filter((a) => a.ok).length;

    it("a user's big job takes only their share while another user has work; the share grows back when that work is done", async () => {
      const big = await seedJob(t.db, sampleIsbns(100, 12_000), ['ebay']);
      const single = await seedJob(t.db, sampleIsbns(1, 13_000), ['ebay']);
      // Two workers' holders, so the share is counted in the database, not in one process.
      const [w1, w2] = [new DailyCallBudget(t.db, 'ebay', 10, 0, now), new DailyCallBudget(t.db, 'ebay', 10, 0, now)];
      const first = await Promise.all([takes(w1, big, 8), takes(w2, big, 8)]);
      expect(okCount(first.flat())).toBe(5);
      const held = first.flat().find((a) => !a.ok);
      expect(held).toMatchObject({ ok: false, note: expect.stringMatching(/^this user's share of the daily quota is used for now/) });
      // Tried again shortly, not at the reset: the share grows when other users' work is done.
      const retryIn = held && !held.ok ? held.resumesAt.getTime() - Date.now() : Number.NaN;
      expect(retryIn).toBeLessThanOrEqual(SHARE_RECHECK_MS);

      expect(await w2.take(single)).toEqual({ ok: true });
      // The single lookup is done: the big job's user may now take the rest of the day.
      await t.db.update(jobProgress).set({ processed: 1 }).where(eq(jobProgress.job_id, single));
      expect(okCount(await takes(w1, big, 6))).toBe(4);
      expect(await w1.take(big)).toMatchObject({ ok: false, note: quotaNote(quotaDay(now(), EBAY_ZONE).resetsAt) });
    });

    it('keeps the reserve for a one-book job from the book page', async () => {
      const owner = await seedUser(t.db);
      const big = await seedJob(t.db, sampleIsbns(100, 14_000), ['ebay'], { ownerId: owner });
      const budget = new DailyCallBudget(t.db, 'ebay', 10, 3, now);
      const batch = await takes(budget, big, 9);
      expect(okCount(batch)).toBe(7);
      // Batch work past budget − reserve waits for the reset.
      expect(batch.at(-1)).toMatchObject({ ok: false, resumesAt: quotaDay(now(), EBAY_ZONE).resetsAt });
      const book = await seedJob(t.db, sampleIsbns(1, 15_000), ['ebay'], { ownerId: owner, inputFilename: BOOK_PAGE_FILENAME });
      expect(okCount(await takes(budget, book, 4))).toBe(3);
      const [day] = await t.db.select().from(marketplaceDailyCalls);
      expect(day).toMatchObject({ used: 10, per_user: { [owner]: 7 } });
    });
  });

  it("a worker spends a big job's share and keeps the reserve: another user's book-page lookup is answered the same day", async () => {
    const before = ebayCalls();
    const big = await seedJob(t.db, sampleIsbns(20, 16_000), ['ebay']);
    const book = await seedJob(t.db, sampleIsbns(1, 17_000), ['ebay'], { inputFilename: BOOK_PAGE_FILENAME });
    workers.push(
      startWorker({ db: t.db, pollIntervalMs: 20, ...sandboxWorkerParts(sandbox, ['ebay'], { dailyCallBudget: 6, dailyReserve: 2 }) }),
    );
    const { resetsAt } = quotaDay(new Date(), EBAY_ZONE);
    await vi.waitFor(
      async () => {
        expect((await lookupRows(t.db, 'ebay', book)).map((r) => isDone(r.lookup_status))).toEqual([true]);
        const rows = await lookupRows(t.db, 'ebay', big);
        // The book's lookup is dealt first (interactive) and counts towards the day: the batch stops
        // at budget − reserve = 4 calls in all, 3 of them the big job's.
        expect(rows.filter((r) => isDone(r.lookup_status))).toHaveLength(3);
        expect(rows.filter((r) => r.last_error === quotaNote(resetsAt))).toHaveLength(17);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(ebayCalls() - before).toBe(4);
  });

  it('two workers share the budget; when it is spent the rest wait for the reset, queued, their attempts kept, and the job page says so', async () => {
    const before = ebayCalls();
    const clock = () => new Date();
    const jobId = await seedJob(t.db, sampleIsbns(10, 31_000), ['ebay']);
    await t.db.update(jobs).set({ ebay: true }).where(eq(jobs.id, jobId));
    startEbayWorker(4, clock);
    startEbayWorker(4, clock);
    const { resetsAt } = quotaDay(clock(), EBAY_ZONE);
    await vi.waitFor(
      async () => {
        const rows = await lookupRows(t.db, 'ebay', jobId);
        expect(rows.filter((r) => isDone(r.lookup_status))).toHaveLength(4);
        expect(rows.filter((r) => r.last_error === quotaNote(resetsAt))).toHaveLength(6);
      },
      { timeout: 15_000, interval: 50 },
    );
    const rows = await lookupRows(t.db, 'ebay', jobId);
    for (const r of rows.filter((x) => !isDone(x.lookup_status))) {
      expect(r).toMatchObject({
        lookup_status: 'queued',
        attempts: 0,
        last_error: `daily quota reached, resumes at ${resetsAt.toISOString()}`,
      });
      expect(r.next_attempt_at.toISOString()).toBe(resetsAt.toISOString());
    }
    expect(ebayCalls() - before).toBe(4);
    const [job] = await t.db.select().from(jobs).where(eq(jobs.id, jobId));
    const summary = await jobSummary(t.db, job!);
    const ebay = summary.sources.find((s) => s.marketplace === MARKETPLACES.ebay.id);
    expect(ebay?.quota_resumes_at?.toISOString()).toBe(resetsAt.toISOString());
    expect(ebay?.statuses.find((s) => s.status === 'failed')).toBeUndefined();
  });

  it('lookups held back resume once the quota day has turned, and none fails meanwhile', async () => {
    const before = ebayCalls();
    // Two days ago: that day's reset has passed for the database, so the held rows are due at once and
    // only the budget (on this clock) holds them until the clock is moved past the reset.
    let now = new Date(Date.now() - 2 * 86_400_000);
    const { resetsAt } = quotaDay(now, EBAY_ZONE);
    const jobId = await seedJob(t.db, sampleIsbns(6, 47_000), ['ebay']);
    const worker = startEbayWorker(3, () => now);
    await vi.waitFor(
      async () => {
        const rows = await lookupRows(t.db, 'ebay', jobId);
        expect(rows.filter((r) => isDone(r.lookup_status))).toHaveLength(3);
        expect(rows.filter((r) => r.last_error === quotaNote(resetsAt))).toHaveLength(3);
      },
      { timeout: 15_000, interval: 50 },
    );
    // Claimed again and again while due, they are never sent and never use up attempts.
    const held = (await lookupRows(t.db, 'ebay', jobId)).filter((r) => !isDone(r.lookup_status));
    expect(held.every((r) => r.lookup_status !== 'failed' && r.attempts <= 1)).toBe(true);
    expect(ebayCalls() - before).toBe(3);

    now = new Date(resetsAt.getTime() + 60_000);
    await worker.idle();
    const rows = await lookupRows(t.db, 'ebay', jobId);
    expect(rows.every((r) => isDone(r.lookup_status))).toBe(true);
    expect(ebayCalls() - before).toBe(6);
  });
});
