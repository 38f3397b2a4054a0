// Watches on both engines: the API's access rules and 422s, and the worker's evaluation in the
// write-back transaction: edge-triggered (fires once while true), re-armed when false, at most one
// notification a day per book and watch however the price flaps, a job watch per book, a price-drop
// condition, a decision condition evaluated by the judge, notifications read, and the bell's count pushed on the live stream.
import { MARKETPLACES } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs, notifications, watchStates, watches } from '../src/db/schema.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { LookupQueue } from '../src/worker/queue.ts';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES, onOneEngine } from './helpers/databases.ts';
import { insertRuleSet, rule } from './helpers/rule-sets.ts';
import { openEventStream } from './helpers/sse.ts';

const AT_LEAST_20 = [{ field: 'best_price', operator: 'gte', value: '20' }];

describe.each(ENGINES)('watches on %s', (engine) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let admin = '';
  let next = 500_000;
  const fresh = (n: number) => {
    next += 100;
    return sampleIsbns(n, next + (engine === 'pg' ? 50_000 : 0));
  };

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await createUser(t, 'watch-owner@example.com');
    other = await createUser(t, 'watch-other@example.com');
    admin = await login(t.app, ADMIN.email, ADMIN.password);
  });
  // Each test starts with an empty queue and no watches, so a claim sees only the test's own rows.
  afterEach(async () => {
    await t.ctx.db.delete(jobs);
    await t.ctx.db.delete(watches);
    await t.ctx.db.delete(notifications);
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string | undefined, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload === undefined ? {} : { payload }) });

  async function paste(isbns: string[], token = owner.token): Promise<number> {
    const res = await call('POST', '/jobs/from-isbns', token, { name: 'watched', abe_books: true, isbns: isbns.join('\n') });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  async function watch(body: Record<string, unknown>, token = owner.token) {
    const res = await call('POST', '/watches', token, { conditions: AT_LEAST_20, ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; armed: boolean };
  }

  const abe = () => new LookupQueue(t.ctx.db, MARKETPLACES.abe_books);
  /** The worker's write-back of AbeBooks answers: a price per ISBN (null: no offers) for every queued row. */
  async function answer(prices: Record<string, number | null>) {
    const claimed = await abe().claim(100, 60_000);
    expect(claimed.map((r) => r.isbn).sort()).toEqual(Object.keys(prices).sort());
    await abe().finish(
      claimed.map((r) => {
        const price = prices[r.isbn] ?? null;
        return {
          id: r.id,
          attempts: r.attempts,
          status: price === null ? ('no_offers_available' as const) : ('completed' as const),
          last_error: null,
          offers: price === null ? [] : [{ price }],
          record: price === null ? null : { listing_price: price, title: `Book ${r.isbn.slice(-4)}` },
        };
      }),
    );
  }
  /** Re-price the job and write these answers. */
  async function reanswer(jobId: number, prices: Record<string, number | null>) {
    const res = await call('POST', `/jobs/${jobId}/reprice`, owner.token);
    expect(res.statusCode, res.body).toBe(200);
    await answer(prices);
  }
  const notes = async (token = owner.token) => (await call('GET', '/notifications', token)).json();
  const readWatch = async (id: number) => must((await t.ctx.db.select().from(watches).where(eq(watches.id, id)))[0], 'the watch');

  // The routes' access rule, 404s and 422s, and watches written and read through the query builder
  // alone (watches/repository.ts): engine-neutral, on ONE_ENGINE's pass only. Their evaluation
  // (hand-written SQL in the write-back) runs on both below.
  onOneEngine(engine, () =>
    describe('the API', () => {
      it('refuses anonymous callers on every route but the email-stop link', async () => {
        for (const [method, url] of [
          ['GET', '/watches'],
          ['POST', '/watches'],
          ['PATCH', '/watches/1'],
          ['DELETE', '/watches/1'],
          ['GET', '/notifications'],
          ['GET', '/notifications/unread-count'],
          ['POST', '/notifications/read'],
        ] as const) {
          const res = await call(method, url, undefined, method === 'GET' || method === 'DELETE' ? undefined : {});
          expect(res.statusCode, `${method} ${url}`).toBe(401);
        }
      });

      it('creates, lists, changes and deletes a watch of a book and of a job', async () => {
        const [isbn] = fresh(1);
        const book = await watch({ isbn: must(isbn, 'an ISBN'), name: '  Worth it  ', email: false });
        expect(book).toMatchObject({ isbn, job_id: null, name: 'Worth it', email: false, armed: true, last_fired_at: null });
        const jobId = await paste(fresh(2));
        const job = await watch({ jobId });
        expect(job).toMatchObject({ isbn: null, job_id: jobId, name: null, email: true, conditions: AT_LEAST_20 });

        expect((await call('GET', '/watches', owner.token)).json()).toMatchObject({ count: 2, data: [{ id: job.id }, { id: book.id }] });
        expect((await call('GET', `/watches?isbn=${isbn}`, owner.token)).json()).toMatchObject({ count: 1, data: [{ id: book.id }] });
        expect((await call('GET', `/watches?jobId=${jobId}`, owner.token)).json()).toMatchObject({ count: 1, data: [{ id: job.id }] });

        const changed = await call('PATCH', `/watches/${book.id}`, owner.token, {
          conditions: [{ field: 'amazon_sales_rank', operator: 'lte', value: '300000' }],
          email: true,
        });
        expect(changed.statusCode, changed.body).toBe(200);
        expect(changed.json()).toMatchObject({ name: 'Worth it', email: true, conditions: [{ field: 'amazon_sales_rank' }] });
        expect((await call('DELETE', `/watches/${book.id}`, owner.token)).json()).toEqual({ message: 'Watch deleted successfully' });
        expect((await call('GET', '/watches', owner.token)).json().count).toBe(1);
      });

      it("answers 404 for someone else's watch or job, to superusers too; a superuser may watch any job", async () => {
        const mine = await watch({ isbn: must(fresh(1)[0], 'an ISBN') });
        for (const token of [other.token, admin]) {
          expect((await call('PATCH', `/watches/${mine.id}`, token, { email: false })).statusCode).toBe(404);
          expect((await call('DELETE', `/watches/${mine.id}`, token)).statusCode).toBe(404);
          expect((await call('GET', '/watches', token)).json()).toEqual({ data: [], count: 0 });
        }
        const ownersJob = await paste(fresh(1));
        const refused = await call('POST', '/watches', other.token, { jobId: ownersJob, conditions: AT_LEAST_20 });
        expect(refused.statusCode).toBe(404);
        const bySuperuser = await watch({ jobId: ownersJob }, admin);
        // The superuser's watch is theirs alone: the job's owner does not see it.
        expect((await call('GET', `/watches?jobId=${ownersJob}`, owner.token)).json().count).toBe(0);
        expect((await call('GET', '/watches', admin)).json()).toMatchObject({ count: 1, data: [{ id: bySuperuser.id }] });
        expect((await readWatch(mine.id)).email).toBe(true);
      });

      it('refuses bad watches with a 422 naming the part, in the rule editor’s words', async () => {
        const [isbn] = fresh(1);
        const cases: [object, (string | number)[], RegExp][] = [
          [{ isbn, conditions: [] }, ['body', 'conditions'], /at least one condition/],
          [
            { isbn, conditions: [{ field: 'nope', operator: 'gte', value: '1' }] },
            ['body', 'conditions', 0, 'field'],
            /Unknown field 'nope'/,
          ],
          [
            { isbn, conditions: [{ field: 'best_price', operator: 'contains', value: '1' }] },
            ['body', 'conditions', 0, 'operator'],
            /not allowed/,
          ],
          [{ isbn, conditions: [{ field: 'best_price', operator: 'gte', value: 'ten' }] }, ['body', 'conditions', 0, 'value'], /./],
          [{ isbn, conditions: [{ field: 'id', operator: 'gte', value: '1' }] }, ['body', 'conditions', 0, 'field'], /Unknown field/],
          [
            { isbn, conditions: [{ field: 'decision', operator: 'gte', value: 'Buy' }] },
            ['body', 'conditions', 0, 'operator'],
            /not allowed/,
          ],
          [{ conditions: AT_LEAST_20 }, ['body', 'isbn'], /either isbn or jobId/],
          [{ isbn, jobId: 1, conditions: AT_LEAST_20 }, ['body', 'isbn'], /either isbn or jobId/],
          [{ isbn: '12345', conditions: AT_LEAST_20 }, ['body', 'isbn'], /./],
          [{ isbn, name: 'x'.repeat(300), conditions: AT_LEAST_20 }, ['body', 'name'], /at most 255/],
        ];
        for (const [body, loc, msg] of cases) {
          const res = await call('POST', '/watches', owner.token, body);
          expect(res.statusCode, JSON.stringify(body)).toBe(422);
          expect(res.json().detail[0], JSON.stringify(body)).toMatchObject({ loc, msg: expect.stringMatching(msg) });
        }
        const w = await watch({ isbn });
        const patch = await call('PATCH', `/watches/${w.id}`, owner.token, {
          conditions: [{ field: 'best_price', operator: 'gte', value: '' }],
        });
        expect(patch.statusCode).toBe(422);
        expect(patch.json().detail[0]).toMatchObject({ loc: ['body', 'conditions', 0, 'value'], msg: 'Value is required' });
        expect((await call('GET', '/notifications?page=0', owner.token)).statusCode).toBe(422);
      });
    }),
  );

  describe('evaluation in the write-back', () => {
    it('fires once when the conditions become true, arms again when they turn false, and fires at most once a day', async () => {
      const [isbn] = fresh(1) as [string];
      const jobId = await paste([isbn]);
      const w = await watch({ isbn, name: 'Worth 20' });

      await answer({ [isbn]: 15 });
      expect((await notes()).count).toBe(0);
      await reanswer(jobId, { [isbn]: 25 });
      const first = await notes();
      expect(first).toMatchObject({ count: 1, unreadCount: 1, data: [{ watch_id: w.id, isbn, job_id: null, read_at: null }] });
      expect(first.data[0].message).toMatch(
        /^Worth 20: Best Price greater or equal 20 — Book \d{4} \(\d{13}\)\. Best price \$25\.00 on Abe Books$/,
      );
      expect(await readWatch(w.id)).toMatchObject({ armed: false, last_fired_at: expect.any(Date) });

      // Still true: no second alert.
      await reanswer(jobId, { [isbn]: 30 });
      expect((await notes()).count).toBe(1);
      // False: armed again, nothing sent.
      await reanswer(jobId, { [isbn]: 10 });
      expect(await readWatch(w.id)).toMatchObject({ armed: true });
      expect((await notes()).count).toBe(1);
      // True again the same day: disarmed, but no second alert (a flapping price).
      await reanswer(jobId, { [isbn]: 26 });
      expect((await notes()).count).toBe(1);
      expect(await readWatch(w.id)).toMatchObject({ armed: false });
      // A day after the first alert, the next rise fires again.
      await t.ctx.db.update(watchStates).set({ last_fired_at: sql`now() - interval '25 hours'` }).where(eq(watchStates.watch_id, w.id));
      await reanswer(jobId, { [isbn]: 10 });
      await reanswer(jobId, { [isbn]: 27 });
      const second = await notes();
      expect(second.count).toBe(2);
      expect(second.data[0].message).toMatch(/\$27\.00/);
    });

    it('fires a job watch once per book that meets it, and not for books of other jobs', async () => {
      const isbns = fresh(3) as [string, string, string];
      const jobId = await paste(isbns);
      const otherJob = await paste(fresh(1));
      const w = await watch({ jobId });
      const otherIsbn = must(
        (await t.ctx.db.execute<{ isbn: string }>(sql`SELECT isbn FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ${otherJob}`))
          .rows[0],
        'a row',
      ).isbn;
      await answer({ [isbns[0]]: 25, [isbns[1]]: 5, [isbns[2]]: 30, [otherIsbn]: 99 });
      const listed = await notes();
      expect(listed.count).toBe(2);
      expect(listed.data.map((n: { job_id: number }) => n.job_id)).toEqual([jobId, jobId]);
      expect(listed.data.map((n: { isbn: string }) => n.isbn).sort()).toEqual([isbns[0], isbns[2]].sort());
      expect(await readWatch(w.id)).toMatchObject({ armed: false });
      // Only the second book becomes true: one more alert, for it.
      await reanswer(jobId, { [isbns[0]]: 25, [isbns[1]]: 21, [isbns[2]]: 30 });
      expect((await notes()).data[0]).toMatchObject({ isbn: isbns[1] });
      expect((await notes()).count).toBe(3);
    });

    it('judges each watch on its own values where several share the conditions’ shape, in one write-back', async () => {
      // One statement judges them all, each reading its values from its own row (watches/evaluate.ts).
      const isbns = fresh(2) as [string, string];
      const jobId = await paste(isbns);
      const low = await watch({ jobId, conditions: [{ field: 'best_price', operator: 'gte', value: '10' }] });
      const high = await watch({ jobId, conditions: [{ field: 'best_price', operator: 'gte', value: '30' }] });
      const cheap = await watch({ isbn: isbns[1], conditions: [{ field: 'best_price', operator: 'lte', value: '12.5' }] });
      await answer({ [isbns[0]]: 25, [isbns[1]]: 12 });
      const fired = (await notes()).data.map((n: { watch_id: number; isbn: string }) => `${n.watch_id} ${n.isbn}`).sort();
      expect(fired).toEqual([`${low.id} ${isbns[0]}`, `${low.id} ${isbns[1]}`, `${cheap.id} ${isbns[1]}`].sort());
      expect(await readWatch(high.id)).toMatchObject({ armed: true });
    });

    it('computes the comparison of a job that keeps no stored rows (one from before comparison_rows)', async () => {
      const isbns = fresh(2) as [string, string];
      const jobId = await paste(isbns);
      await t.ctx.db.update(jobs).set({ comparison_stored: false }).where(eq(jobs.id, jobId));
      await t.ctx.db.execute(sql`DELETE FROM comparison_rows WHERE job_id = ${jobId}`);
      await watch({ jobId });
      await answer({ [isbns[0]]: 25, [isbns[1]]: 5 });
      expect((await notes()).data).toMatchObject([{ isbn: isbns[0], message: expect.stringMatching(/Best price \$25\.00 on Abe Books$/) }]);
    });

    it('evaluates a velocity condition on the velocity the same write-back moved (an Amazon answer and its rank)', async () => {
      const [isbn] = fresh(1) as [string];
      const res = await call('POST', '/jobs/from-isbns', owner.token, { name: 'ranked', amazon: true, isbns: isbn });
      expect(res.statusCode, res.body).toBe(200);
      const jobId: number = res.json().id;
      await watch({ jobId, conditions: [{ field: 'velocity_observations', operator: 'gte', value: '1' }] });
      const amazon = new LookupQueue(t.ctx.db, MARKETPLACES.amazon);
      const [row] = await amazon.claim(10, 60_000);
      expect(row?.isbn).toBe(isbn);
      // The first rank ever seen for the book: its velocity rests on one observation only once this write-back refreshed it.
      await amazon.finish([
        {
          id: must(row, 'a row').id,
          attempts: must(row, 'a row').attempts,
          status: 'completed',
          last_error: null,
          offers: [{}],
          record: { sales_rank: 48_213, lowest_used_price: 12, title: 'Ranked' },
        },
      ]);
      expect((await notes()).data).toMatchObject([
        { isbn, job_id: jobId, message: expect.stringMatching(/^Your watch: Rank Observations greater or equal 1/) },
      ]);
    });

    it('fires on a price drop through the best price change field', async () => {
      const [isbn] = fresh(1) as [string];
      const jobId = await paste([isbn]);
      await watch({ isbn, conditions: [{ field: 'best_price_change', operator: 'lte', value: '-5' }] });
      await answer({ [isbn]: 30 });
      await reanswer(jobId, { [isbn]: 27 });
      expect((await notes()).count).toBe(0);
      await reanswer(jobId, { [isbn]: 21.5 });
      expect((await notes()).data).toMatchObject([{ message: expect.stringMatching(/Best Price Change less or equal -5/) }]);
    });

    it('fires a decision watch once when the judge after a re-price makes the decision Buy, and arms it again when it stops being Buy', async () => {
      const [isbn] = fresh(1) as [string];
      const jobId = await paste([isbn]);
      const rules = await insertRuleSet(t.ctx.db, owner.id, 'Buy at 20', [
        rule('Buy', 'green', [['best_price', 'gte', 20]]),
        rule('Pass', 'gray', []),
      ]);
      const judge = async () => {
        const res = await call('POST', `/jobs/${jobId}/judge`, owner.token, { rule_set_id: rules.id });
        expect(res.statusCode, res.body).toBe(200);
      };
      const w = await watch({ isbn, name: 'Buy it', conditions: [{ field: 'decision', operator: 'equals', value: 'Buy' }] });

      await answer({ [isbn]: 15 });
      await judge();
      expect((await notes()).count).toBe(0);
      // The write-back alone does not fire it: the decision is still the one judged before this answer.
      await reanswer(jobId, { [isbn]: 25 });
      expect((await notes()).count).toBe(0);
      await judge();
      const first = await notes();
      expect(first).toMatchObject({ count: 1, data: [{ watch_id: w.id, isbn, job_id: null }] });
      expect(first.data[0].message).toMatch(/^Buy it: Decision equals Buy — Book \d{4} \(\d{13}\)\. Best price \$25\.00 on Abe Books$/);
      expect(await readWatch(w.id)).toMatchObject({ armed: false });

      // Still Buy: no second alert. Judged again without a change: none either.
      await reanswer(jobId, { [isbn]: 30 });
      await judge();
      await judge();
      expect((await notes()).count).toBe(1);
      // No longer Buy: armed again, nothing sent.
      await reanswer(jobId, { [isbn]: 10 });
      await judge();
      expect(await readWatch(w.id)).toMatchObject({ armed: true });
      expect((await notes()).count).toBe(1);
      // Buy again after the day's limit: the second alert.
      await t.ctx.db.update(watchStates).set({ last_fired_at: sql`now() - interval '25 hours'` }).where(eq(watchStates.watch_id, w.id));
      await reanswer(jobId, { [isbn]: 27 });
      await judge();
      expect((await notes()).count).toBe(2);
      expect(await readWatch(w.id)).toMatchObject({ armed: false });
    });

    it('fires a job watch on the decision per book the judge makes Buy', async () => {
      const isbns = fresh(2) as [string, string];
      const jobId = await paste(isbns);
      const rules = await insertRuleSet(t.ctx.db, owner.id, 'Buy at 20', [rule('Buy', 'green', [['best_price', 'gte', 20]])]);
      const judge = async () =>
        expect((await call('POST', `/jobs/${jobId}/judge`, owner.token, { rule_set_id: rules.id })).statusCode).toBe(200);
      await watch({ jobId, conditions: [{ field: 'decision', operator: 'equals', value: 'Buy' }] });
      await answer({ [isbns[0]]: 25, [isbns[1]]: 5 });
      expect((await notes()).count).toBe(0);
      await judge();
      expect((await notes()).data).toMatchObject([{ isbn: isbns[0], job_id: jobId }]);
      await reanswer(jobId, { [isbns[0]]: 25, [isbns[1]]: 22 });
      await judge();
      expect((await notes()).data).toMatchObject([{ isbn: isbns[1], job_id: jobId }, { isbn: isbns[0] }]);
    });

    it('lets a user read their notifications, one or all, and pushes the unread count on the live stream', async () => {
      const isbns = fresh(2) as [string, string];
      await paste(isbns);
      await watch({ isbn: isbns[0] });
      await watch({ isbn: isbns[1] });
      const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const stream = await openEventStream(`${base}/api/v1/jobs/events`, owner.token);
      try {
        await stream.waitFor((e) => e.event === 'ready');
        await answer({ [isbns[0]]: 20, [isbns[1]]: 40 });
        await stream.waitFor((e) => e.event === 'notifications' && JSON.parse(e.data).unreadCount === 2);
        expect((await call('GET', '/notifications/unread-count', owner.token)).json()).toEqual({ unreadCount: 2 });
        expect((await notes(other.token)).count).toBe(0);

        const [newest] = (await notes()).data;
        // Someone else cannot mark them read.
        expect((await call('POST', '/notifications/read', other.token, { ids: [newest.id] })).json()).toEqual({ unreadCount: 0 });
        expect((await call('POST', '/notifications/read', owner.token, { ids: [newest.id] })).json()).toEqual({ unreadCount: 1 });
        await stream.waitFor((e) => e.event === 'notifications' && JSON.parse(e.data).unreadCount === 1);
        expect((await notes()).data[0].read_at).toEqual(expect.any(String));
        expect((await call('POST', '/notifications/read', owner.token, {})).json()).toEqual({ unreadCount: 0 });
        await stream.waitFor((e) => e.event === 'notifications' && JSON.parse(e.data).unreadCount === 0);
      } finally {
        stream.close();
      }
    });
  });
});
