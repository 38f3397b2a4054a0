// Scheduled re-pricing on both engines (docs/features/jobs.md, "Scheduled re-pricing"): the
// schedule routes (access, 422s, audit events), the worker's look for due schedules (a run fires
// when due, once whatever the number of claimers, not while paused nor while the job has lookups
// left), a scheduled run's rows dealt behind fresh work, and a run held to the daily budget.
// "Due" is made by moving next_run_at into the past: no test waits for days.
import { BOOK_PAGE_FILENAME } from '@app/domain/book';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, jobs, marketplaceDailyCalls } from '../src/db/schema.ts';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import type { Sandbox } from '../src/sandbox/server.ts';
import { quotaDay, quotaNote, quotaTimeZoneOf } from '../src/worker/daily-budget.ts';
import { LookupQueue, type ClaimedRow } from '../src/worker/queue.ts';
import { ScheduledReprices } from '../src/worker/scheduled-reprice.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, createUser, login, silentLogger, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES, onOneEngine } from './helpers/databases.ts';
import { postJobUpload } from './helpers/multipart.ts';
import { TouchedJobs, lookupRows, sandboxWorkerParts } from './helpers/worker.ts';

const DAY = 86_400_000;

describe.each(ENGINES)('scheduled re-pricing on %s', (engine) => {
  let t: TestApp;
  let sandbox: Sandbox;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let admin = '';
  let isbnStart = 7_100_000;

  beforeAll(async () => {
    t = await startTestApp(engine);
    sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0 });
    owner = await createUser(t, 'schedule-owner@example.com');
    other = await createUser(t, 'schedule-other@example.com');
    admin = await login(t.app, ADMIN.email, ADMIN.password);
  });
  // Each test starts with an empty queue and a fresh day's count.
  afterEach(async () => {
    await t.ctx.db.delete(jobs);
    await t.ctx.db.delete(marketplaceDailyCalls);
  });
  afterAll(async () => {
    await sandbox?.close();
    await t?.close();
  });

  async function createJob(n: number, markets: MarketplaceId[], token = owner.token): Promise<number> {
    isbnStart += 1_000;
    const isbns = sampleIsbns(n, isbnStart);
    const flags = Object.fromEntries(markets.map((m) => [m, true]));
    const res = await postJobUpload(
      t.app,
      token,
      { name: 'Scheduled', ...flags },
      { name: 'isbns.csv', data: ['isbn', ...isbns].join('\n') },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  const api = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
  const putSchedule = (jobId: number, body: object, token = owner.token) => api('PUT', `/jobs/${jobId}/schedule`, token, body);
  const readJob = async (jobId: number) => (await api('GET', `/jobs/${jobId}`, owner.token)).json();
  const jobRow = async (jobId: number) => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;

  const queueOf = (m: MarketplaceId) => new LookupQueue(t.ctx.db, MARKETPLACES[m]);
  /** Answers every queued lookup of the marketplace, as a worker would. */
  async function answerAll(m: MarketplaceId) {
    const claimed = await queueOf(m).claim(500, 60_000);
    await queueOf(m).finish(
      claimed.map((row: ClaimedRow) => ({
        id: row.id,
        attempts: row.attempts,
        status: 'completed',
        last_error: null,
        offers: [],
        record: null,
      })),
    );
  }
  const statuses = async (m: MarketplaceId, jobId: number) => (await lookupRows(t.ctx.db, m, jobId)).map((r) => r.lookup_status);

  /** A worker's look for due schedules, as the worker runs it every WORKER_SCHEDULE_CHECK_MS. */
  const scheduler = () => new ScheduledReprices({ db: t.ctx.db, log: silentLogger, jobEvents: new TouchedJobs(), bulk: t.ctx.bulk });
  /** The schedule's next run, moved `ms` into the past. */
  const makeDue = (jobId: number, ms = 60_000) =>
    t.ctx.db
      .update(jobs)
      .set({ schedule_next_run_at: new Date(Date.now() - ms) })
      .where(eq(jobs.id, jobId));
  const auditOf = (jobId: number) =>
    t.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target_type, 'job'), eq(auditEvents.target_id, String(jobId))))
      .orderBy(auditEvents.id);

  // The routes' access rule, their 422s, and the schedule and its audit events written through the
  // query builder alone (jobs/schedule.ts): engine-neutral, on ONE_ENGINE's pass only. The worker's
  // claim of due schedules (hand-written SQL, concurrent claimers) runs on both below.
  onOneEngine(engine, () =>
    describe('the routes', () => {
      it('answer 401 without a token, 404 on someone else’s job, and let a superuser set and remove it', async () => {
        const jobId = await createJob(2, ['alibris']);
        expect((await readJob(jobId)).schedule).toBeNull();
        expect((await putSchedule(jobId, { every_days: 7 }, '')).statusCode).toBe(401);
        expect((await api('DELETE', `/jobs/${jobId}/schedule`, '')).statusCode).toBe(401);
        const foreign = await putSchedule(jobId, { every_days: 7 }, other.token);
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json().detail).toBe('Job not found');
        expect((await api('DELETE', `/jobs/${jobId}/schedule`, other.token)).statusCode).toBe(404);
        expect((await readJob(jobId)).schedule).toBeNull();

        const bySuperuser = await putSchedule(jobId, { every_days: 5 }, admin);
        expect(bySuperuser.statusCode, bySuperuser.body).toBe(200);
        const adminId = (await api('GET', '/users/me', admin)).json().id;
        expect(bySuperuser.json().schedule).toMatchObject({ every_days: 5, paused: false, set_by: adminId });
        // The owner reads it on the job.
        expect((await readJob(jobId)).schedule).toMatchObject({ every_days: 5, set_by: adminId });
        const removed = await api('DELETE', `/jobs/${jobId}/schedule`, admin);
        expect(removed.statusCode).toBe(200);
        expect(removed.json().schedule).toBeNull();
        // Nothing left to remove.
        expect((await api('DELETE', `/jobs/${jobId}/schedule`, owner.token)).statusCode).toBe(404);
      });

      it.each([
        [{}, 'every_days'],
        [{ every_days: 0 }, 'every_days'],
        [{ every_days: 366 }, 'every_days'],
        [{ every_days: 1.5 }, 'every_days'],
        [{ every_days: '7' }, 'every_days'],
        [{ every_days: null }, 'every_days'],
        [{ every_days: 7, paused: 'yes' }, 'paused'],
      ])('%j answers 422 naming %s and changes nothing', async (body, field) => {
        const jobId = await createJob(1, ['alibris']);
        const res = await putSchedule(jobId, body);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().detail.map((d: { loc: string[] }) => d.loc.at(-1))).toContain(field);
        expect((await readJob(jobId)).schedule).toBeNull();
      });

      it('set, pause, resume, change and remove: each an audit event saying who and what', async () => {
        const jobId = await createJob(2, ['alibris']);
        const before = Date.now();
        const set = (await putSchedule(jobId, { every_days: 7 })).json();
        expect(set.schedule).toMatchObject({ every_days: 7, paused: false, set_by: owner.id });
        const next = new Date(set.schedule.next_run_at).getTime();
        expect(next).toBeGreaterThanOrEqual(before + 7 * DAY);
        expect(next).toBeLessThanOrEqual(Date.now() + 7 * DAY);

        const paused = (await putSchedule(jobId, { every_days: 7, paused: true })).json().schedule;
        expect(paused).toMatchObject({ every_days: 7, paused: true, next_run_at: set.schedule.next_run_at });
        // The same again, by a superuser, changes nothing (not even who set it) and records nothing.
        const same = await putSchedule(jobId, { every_days: 7, paused: true }, admin);
        expect(same.statusCode).toBe(200);
        expect(same.json().schedule).toEqual(paused);
        const resumed = (await putSchedule(jobId, { every_days: 7, paused: false })).json().schedule;
        expect(resumed).toMatchObject({ paused: false, next_run_at: set.schedule.next_run_at });
        // Every 3 days counts from the last run (the set, just now), and `paused` left out stays as it was.
        const changed = (await putSchedule(jobId, { every_days: 3 })).json().schedule;
        expect(changed.paused).toBe(false);
        expect(new Date(changed.next_run_at).getTime()).toBe(next - 4 * DAY);
        expect((await api('DELETE', `/jobs/${jobId}/schedule`, owner.token)).statusCode).toBe(200);

        const events = await auditOf(jobId);
        const scheduleEvents = events.filter((e) => e.action.startsWith('job.schedule'));
        expect(scheduleEvents.map((e) => e.action)).toEqual([
          'job.schedule_set',
          'job.schedule_paused',
          'job.schedule_resumed',
          'job.schedule_set',
          'job.schedule_removed',
        ]);
        expect(scheduleEvents.every((e) => e.actor_id === owner.id && e.actor_email === 'schedule-owner@example.com')).toBe(true);
        expect(scheduleEvents[0]!.details).toMatchObject({ before: null, after: { every_days: 7, paused: false } });
        expect(scheduleEvents[3]!.details).toMatchObject({ before: { every_days: 7 }, after: { every_days: 3 } });
        expect(scheduleEvents[4]!.details).toMatchObject({ before: { every_days: 3 }, after: null });
      });
    }),
  );

  describe('the worker', () => {
    it('re-prices a job whose schedule is due, once, and moves the next run on by whole intervals', async () => {
      const jobId = await createJob(3, ['alibris', 'biblio']);
      await answerAll('alibris');
      await answerAll('biblio');
      await putSchedule(jobId, { every_days: 2 });
      // Not due yet: nothing happens.
      expect(await scheduler().tick()).toEqual({ ran: 0, skipped: 0 });
      expect(await statuses('alibris', jobId)).toEqual(Array(3).fill('completed'));

      // Due five days ago (every 2 days: two runs were missed): one run, the next at the same time of day, in the future.
      await makeDue(jobId, 5 * DAY);
      const wasDue = (await jobRow(jobId)).schedule_next_run_at!.getTime();
      expect(await scheduler().tick()).toEqual({ ran: 1, skipped: 0 });
      expect(await statuses('alibris', jobId)).toEqual(Array(3).fill('queued'));
      expect(await statuses('biblio', jobId)).toEqual(Array(3).fill('queued'));
      const job = await jobRow(jobId);
      expect(job).toMatchObject({ queued_by_schedule: true, cancelled_at: null });
      expect(job.repriced_at).not.toBeNull();
      expect(job.schedule_next_run_at!.getTime()).toBe(wasDue + 6 * DAY);
      expect((await readJob(jobId)).alibris).toMatchObject({ total_isbns: 3, processed_isbns: 0 });
      // Looked at again: not due any more.
      expect(await scheduler().tick()).toEqual({ ran: 0, skipped: 0 });

      const runs = (await auditOf(jobId)).filter((e) => e.action === 'job.schedule_run');
      expect(runs).toHaveLength(1);
      // By the system: no actor, no address.
      expect(runs[0]).toMatchObject({ actor_id: null, actor_email: null, client_address: null, target_label: 'Scheduled' });
      expect(runs[0]!.details).toMatchObject({ owner_id: owner.id, every_days: 2, lookups_affected: 6 });
    });

    it('fires once when several workers look at the same moment', async () => {
      const jobIds = [await createJob(2, ['alibris']), await createJob(2, ['alibris'])];
      await answerAll('alibris');
      for (const id of jobIds) {
        await putSchedule(id, { every_days: 1 });
        await makeDue(id);
      }
      const looks = await Promise.all([scheduler().tick(), scheduler().tick(), scheduler().tick(), scheduler().tick()]);
      expect(looks.reduce((n, l) => n + l.ran, 0)).toBe(2);
      expect(looks.reduce((n, l) => n + l.skipped, 0)).toBe(0);
      for (const id of jobIds) {
        expect((await auditOf(id)).filter((e) => e.action === 'job.schedule_run')).toHaveLength(1);
        expect(await statuses('alibris', id)).toEqual(['queued', 'queued']);
      }
    });

    it('skips a run while the job still has lookups left, and moves the next run on', async () => {
      const jobId = await createJob(2, ['alibris']);
      await putSchedule(jobId, { every_days: 1 });
      await makeDue(jobId);
      expect(await scheduler().tick()).toEqual({ ran: 0, skipped: 1 });
      expect(await statuses('alibris', jobId)).toEqual(['queued', 'queued']);
      expect((await jobRow(jobId)).schedule_next_run_at!.getTime()).toBeGreaterThan(Date.now());
      expect((await jobRow(jobId)).queued_by_schedule).toBe(false);
      const skipped = (await auditOf(jobId)).filter((e) => e.action === 'job.schedule_skipped');
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toMatchObject({ actor_id: null });
    });

    it('does not run a paused schedule; resumed, the run that passed meanwhile fires', async () => {
      const jobId = await createJob(2, ['alibris']);
      await answerAll('alibris');
      await putSchedule(jobId, { every_days: 1, paused: true });
      await makeDue(jobId);
      const due = (await jobRow(jobId)).schedule_next_run_at;
      expect(await scheduler().tick()).toEqual({ ran: 0, skipped: 0 });
      expect(await statuses('alibris', jobId)).toEqual(['completed', 'completed']);
      expect((await jobRow(jobId)).schedule_next_run_at).toEqual(due);

      await putSchedule(jobId, { every_days: 1, paused: false });
      expect(await scheduler().tick()).toEqual({ ran: 1, skipped: 0 });
      expect(await statuses('alibris', jobId)).toEqual(['queued', 'queued']);
    });

    it('deals a scheduled run’s lookups behind a fresh job’s, without starving them; a person’s re-price ranks as fresh', async () => {
      const scheduled = await createJob(100, ['alibris']);
      await answerAll('alibris');
      await putSchedule(scheduled, { every_days: 1 });
      await makeDue(scheduled);
      expect(await scheduler().tick()).toEqual({ ran: 1, skipped: 0 });
      const fresh = await createJob(100, ['alibris']);

      const jobOf = async (rows: ClaimedRow[]) => rows.map((r) => r.isbn_lookup_job_id);
      // One turn of the scheduled job for every two of the fresh one's: 20 and 10 of 30.
      const batch = await jobOf(await queueOf('alibris').claim(30, 60_000));
      expect(batch.filter((j) => j === fresh)).toHaveLength(20);
      expect(batch.filter((j) => j === scheduled)).toHaveLength(10);

      // The owner re-prices by hand: the job's work is a person's again, dealt evenly.
      expect((await api('POST', `/jobs/${scheduled}/reprice`, owner.token)).statusCode).toBe(200);
      expect((await jobRow(scheduled)).queued_by_schedule).toBe(false);
      const even = await jobOf(await queueOf('alibris').claim(30, 60_000));
      expect(even.filter((j) => j === fresh)).toHaveLength(15);
      expect(even.filter((j) => j === scheduled)).toHaveLength(15);
    });

    it('a running worker looks for due schedules on its own and answers the run’s lookups', async () => {
      const jobId = await createJob(2, ['alibris']);
      await answerAll('alibris');
      const firstAnswers = (await lookupRows(t.ctx.db, 'alibris', jobId)).map((r) => r.answered_at!.getTime());
      await putSchedule(jobId, { every_days: 1 });
      await makeDue(jobId);
      const worker = startWorker({
        db: t.ctx.db,
        pollIntervalMs: 20,
        scheduleCheckMs: 50,
        bulk: t.ctx.bulk,
        ...sandboxWorkerParts(sandbox, ['alibris']),
      });
      try {
        await vi.waitFor(
          async () => {
            expect((await auditOf(jobId)).filter((e) => e.action === 'job.schedule_run')).toHaveLength(1);
            const rows = await lookupRows(t.ctx.db, 'alibris', jobId);
            expect(rows.map((r) => r.lookup_status)).toEqual(['completed', 'completed']);
            for (const [i, r] of rows.entries()) expect(r.answered_at!.getTime()).toBeGreaterThan(firstAnswers[i]!);
          },
          { timeout: 15_000, interval: 50 },
        );
      } finally {
        await worker.stop();
      }
      expect((await jobRow(jobId)).schedule_next_run_at!.getTime()).toBeGreaterThan(Date.now());
    });

    it('a scheduled run of a book page’s job is not interactive: nobody waits for it', async () => {
      const jobId = await createJob(2, ['alibris']);
      await t.ctx.db.update(jobs).set({ input_filename: BOOK_PAGE_FILENAME }).where(eq(jobs.id, jobId));
      await answerAll('alibris');
      await putSchedule(jobId, { every_days: 1 });
      await makeDue(jobId);
      expect(await scheduler().tick()).toEqual({ ran: 1, skipped: 0 });
      // Not dealt in a claim for interactive work only, nor marked as one in a batch.
      expect(await queueOf('alibris').claim(10, 60_000, { interactiveOnly: true })).toEqual([]);
      const claimed = await queueOf('alibris').claim(10, 60_000);
      expect(claimed.map((r) => r.interactive)).toEqual([false, false]);
    });

    it("a scheduled run stays within the day's budget: once it is spent, the run's lookups wait for the reset", async () => {
      const ebayCalls = () => sandbox.stats().byMarketplace.ebay.requests;
      const jobId = await createJob(3, ['ebay']);
      const parts = sandboxWorkerParts(sandbox, ['ebay'], { dailyCallBudget: 3, dailyReserve: 0 });
      const first = startWorker({ db: t.ctx.db, pollIntervalMs: 20, ...parts });
      await first.idle();
      await first.stop();
      const spent = ebayCalls();
      expect((await statuses('ebay', jobId)).every((s) => s === 'completed' || s === 'no_offers_available')).toBe(true);

      await putSchedule(jobId, { every_days: 1 });
      await makeDue(jobId);
      expect(await scheduler().tick()).toEqual({ ran: 1, skipped: 0 });
      const { resetsAt } = quotaDay(new Date(), quotaTimeZoneOf('ebay'));
      const second = startWorker({ db: t.ctx.db, pollIntervalMs: 20, ...parts });
      try {
        await vi.waitFor(
          async () => {
            const rows = await lookupRows(t.ctx.db, 'ebay', jobId);
            expect(rows.map((r) => [r.lookup_status, r.last_error])).toEqual(Array(3).fill(['queued', quotaNote(resetsAt)]));
          },
          { timeout: 15_000, interval: 50 },
        );
      } finally {
        await second.stop();
      }
      // Not one call more than the budget.
      expect(ebayCalls()).toBe(spent);
    });
  });
});
