// Judging jobs with buy rules through the HTTP API, on both engines: the first matching rule wins,
// "No rule", the Otherwise rule, rules over number and text fields, a rule naming a field the comparison lacks; the
// Decision column filtered and sorted in rule order; counts; the buy list CSV; re-judging; a job
// keeps its version when the rule set is edited; the worker judges a team-default job as it ends;
// who may judge with what, and the 422s and 409.
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPARISON_CSV_FIELDS } from '@app/domain/comparison';
import { knownValues } from '@app/domain/known-values';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { addVersion, insertRuleSet, rule } from './helpers/rule-sets.ts';
import { sandboxWorkerParts } from './helpers/worker.ts';

const ISBN = (n: number) => `978000000000${n}`;

/** Rule 0 needs a number, a text (contains, any case) and a PalletIQ field; rules 2 and 3 can never match. */
const RULES_V1 = [
  rule('Buy', 'green', [
    ['best_price', 'lte', 9],
    ['title', 'contains', 'ON'],
    ['pallet_iq_decision', 'equals', 'BUY'],
  ]),
  rule('List on AbeBooks', 'blue', [['spread', 'gte', '10']]),
  // Saved before a field was removed: never matches, judging goes on.
  rule('Ghost', 'red', [['removed_field', 'equals', 'x']]),
  // An operator that does not fit the field: never matches either.
  rule('Odd', 'orange', [['best_price', 'contains', '9']]),
  rule('Cheap', 'teal', [['best_price', 'lt', 10]]),
];

describe.each(ENGINES)('decisions on %s', (engine) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let adminToken: string;
  let jobId: number;
  let neverJudged: number;
  let ownSet: { id: number; versionId: number };
  let otherSet: { id: number; versionId: number };
  let teamSet: { id: number; versionId: number };

  async function insertJob(ownerId: string, flags: string[]): Promise<number> {
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`INSERT INTO jobs (name, input_filename, owner_id, ${sql.raw(flags.join(', '))}, updated_at)
          VALUES ('judge me', 'in.csv', ${ownerId}, ${sql.raw(flags.map(() => 'true').join(', '))}, now() - interval '1 hour') RETURNING id`,
    );
    return rows[0]!.id;
  }
  async function lookup(table: string, job: number, isbn: string, data: Record<string, unknown> = {}, status = 'completed') {
    const names = Object.keys(data);
    await t.ctx.db.execute(
      sql`INSERT INTO ${sql.identifier(table)} (isbn_lookup_job_id, isbn, lookup_status${sql.raw(names.map((n) => `, ${n}`).join(''))})
          VALUES (${job}, ${isbn}, ${status}${
            names.length
              ? sql`, ${sql.join(
                  names.map((n) => sql`${data[n]}`),
                  sql`, `,
                )}`
              : sql``
          })`,
    );
  }

  const req = (method: 'GET' | 'POST', token: string, url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
  const judge = (token: string, ruleSetId: unknown, job = jobId) => req('POST', token, `/jobs/${job}/judge`, { rule_set_id: ruleSetId });
  const rejudge = (token: string, job = jobId) => req('POST', token, `/jobs/${job}/rejudge`);
  const summary = (token: string, job = jobId) => req('GET', token, `/jobs/${job}/decisions`);
  const rows = async (filters: unknown[], qs = '', job = jobId) => {
    const res = await req('POST', owner.token, `/jobs/${job}/comparison${qs}`, { filters });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { isbn: string; decision: string | null }[];
  };
  const isbns = async (filters: unknown[], qs = '') => (await rows(filters, qs)).map((r) => r.isbn);
  const decisions = async () => Object.fromEntries((await rows([])).map((r) => [r.isbn, r.decision]));

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await createUser(t, 'judge-owner@example.com');
    other = await createUser(t, 'judge-other@example.com');
    adminToken = await login(t.app, ADMIN.email, ADMIN.password);
    const [admin] = (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM users WHERE email = ${ADMIN.email}`)).rows;
    jobId = await insertJob(owner.id, ['abe_books', 'alibris', 'pallet_iq']);
    // 1: best 9 (Alibris), "One", PalletIQ BUY. 2: best 20. 3: best 7, spread 23. 4: failed everywhere (no queued rows: the worker test waits for an empty queue). 5: best 5, spread 1.
    const abe = 'abe_books_price_lookups';
    const alibris = 'alibris_price_lookups';
    const piq = 'pallet_iq_price_lookups';
    await lookup(abe, jobId, ISBN(1), { title: 'One', total_listing_price: 10 });
    await lookup(abe, jobId, ISBN(2), { total_listing_price: 20 });
    await lookup(abe, jobId, ISBN(3), { total_listing_price: 7 });
    await lookup(abe, jobId, ISBN(4), {}, 'failed');
    await lookup(abe, jobId, ISBN(5), { total_listing_price: 6 });
    await lookup(alibris, jobId, ISBN(1), { price: 9 });
    await lookup(alibris, jobId, ISBN(2), {}, 'no_offers_available');
    await lookup(alibris, jobId, ISBN(3), { price: 30 });
    await lookup(alibris, jobId, ISBN(4), {}, 'failed');
    await lookup(alibris, jobId, ISBN(5), { price: 5 });
    await lookup(piq, jobId, ISBN(1), { winner_amazon_log_data_mp_decision: 'BUY' });
    for (const n of [2, 3, 4, 5]) await lookup(piq, jobId, ISBN(n), { winner_amazon_log_data_mp_decision: 'REJECT' });
    neverJudged = await insertJob(owner.id, ['abe_books']);
    await lookup(abe, neverJudged, ISBN(9), { total_listing_price: 3 });
    ownSet = await insertRuleSet(t.ctx.db, owner.id, 'Mine', RULES_V1);
    otherSet = await insertRuleSet(t.ctx.db, other.id, 'Theirs', [rule('Theirs', 'grape', [['best_price', 'gt', 0]])]);
    teamSet = await insertRuleSet(t.ctx.db, admin!.id, 'Team', [rule('Team pick', 'violet', [['best_price', 'gte', 0]])], {
      teamDefault: true,
    });
  });
  afterAll(() => t.close());

  it('shows no decision and no counts before a job is judged, and cannot re-judge it', async () => {
    expect((await rows([], '', neverJudged)).map((r) => r.decision)).toEqual([null]);
    expect((await rows([], '?sort_by=decision', neverJudged)).map((r) => r.isbn)).toEqual([ISBN(9)]);
    const res = await summary(owner.token, neverJudged);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rule_set: null, judged_at: null, stale: false, outcomes: [] });
    const again = await rejudge(owner.token, neverJudged);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/not been judged/);
  });

  it('gives each row the first matching rule, over number and text fields, and No rule otherwise', async () => {
    const res = await judge(owner.token, ownSet.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rule_set: { id: ownSet.id, name: 'Mine', version: 1, version_id: ownSet.versionId }, stale: false });
    expect(Date.now() - Date.parse(res.json().judged_at)).toBeLessThan(60_000);
    // 1 and 3 match Cheap too, but an earlier rule first; Ghost and Odd never match.
    expect(await decisions()).toEqual({
      [ISBN(1)]: 'Buy',
      [ISBN(2)]: 'No rule',
      [ISBN(3)]: 'List on AbeBooks',
      [ISBN(4)]: 'No rule',
      [ISBN(5)]: 'Cheap',
    });
  });

  it('counts per decision in rule order with the rules’ colours, No rule last', async () => {
    const res = await summary(owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().outcomes).toEqual([
      { outcome: 'Buy', color: 'green', count: 1 },
      { outcome: 'List on AbeBooks', color: 'blue', count: 1 },
      { outcome: 'Ghost', color: 'red', count: 0 },
      { outcome: 'Odd', color: 'orange', count: 0 },
      { outcome: 'Cheap', color: 'teal', count: 1 },
      { outcome: 'No rule', color: 'gray', count: 2 },
    ]);
  });

  it("sums each decision's books, cost and estimated profit, and counts books per best source, matching the comparison to the cent", async () => {
    const setCost = (cost: number | null) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/jobs/${jobId}/cost`, headers: bearer(owner.token), payload: { cost_per_book: cost } });
    expect((await setCost(1.1)).statusCode).toBe(200);
    try {
      const res = await req('GET', owner.token, `/jobs/${jobId}/results`);
      expect(res.statusCode, res.body).toBe(200);
      const page = (await rows([])) as unknown as { decision: string; best_source: string | null; estimated_profit: number | null }[];
      const cents = (rs: typeof page) => rs.reduce((n, r) => n + Math.round((r.estimated_profit ?? 0) * 100), 0);
      const byDecision = (o: string) => page.filter((r) => r.decision === o);
      const body = res.json();
      expect(body.books).toBe(5);
      expect(body.all).toEqual({ books: 5, cost: 5.5, estimated_profit: cents(page) / 100, priced: 4 });
      expect(new Map(body.decisions.map((d: { outcome: string }) => [d.outcome, d]))).toEqual(
        new Map(
          ['Buy', 'List on AbeBooks', 'Cheap', 'No rule'].map((o) => [
            o,
            {
              outcome: o,
              books: byDecision(o).length,
              cost: Math.round(110 * byDecision(o).length) / 100,
              estimated_profit: cents(byDecision(o)) / 100,
              priced: byDecision(o).filter((r) => r.estimated_profit !== null).length,
            },
          ]),
        ),
      );
      // Books 1 and 5 sell best on Alibris, 2 and 3 on AbeBooks; 4 has no price to compare.
      const sources = new Map<string | null, number>();
      for (const r of page) sources.set(r.best_source, (sources.get(r.best_source) ?? 0) + 1);
      expect(body.best_sources).toEqual(
        [...sources]
          .map(([source, books]) => ({ source, books }))
          .sort((a, b) => (a.source === null ? 1 : b.source === null ? -1 : b.books - a.books || a.source.localeCompare(b.source))),
      );
      expect(body.best_sources.at(-1)).toEqual({ source: null, books: 1 });
    } finally {
      await setCost(null);
    }
    // Not judged: no decisions, the totals still.
    const never = (await req('GET', owner.token, `/jobs/${neverJudged}/results`)).json();
    expect(never).toMatchObject({ books: 1, decisions: [], best_sources: [{ source: 'Abe Books', books: 1 }] });
    expect((await req('GET', other.token, `/jobs/${jobId}/results`)).statusCode).toBe(404);
    const bad = await req('GET', owner.token, '/jobs/abc/results');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['path', 'id']);
  });

  it('gives every row no earlier rule caught to the Otherwise rule (a last rule without conditions), saved through the API', async () => {
    const job = await insertJob(owner.id, ['abe_books']);
    await lookup('abe_books_price_lookups', job, ISBN(1), { total_listing_price: 4 });
    await lookup('abe_books_price_lookups', job, ISBN(2), { total_listing_price: 40 });
    await lookup('abe_books_price_lookups', job, ISBN(3), {}, 'failed');
    const created = await req('POST', owner.token, '/rule-sets', {
      name: 'With otherwise',
      rules: [rule('Buy', 'green', [['best_price', 'lte', '5']]), { outcome: 'Reject', color: 'red', conditions: [] }],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().rules[1].conditions).toEqual([]);
    expect((await judge(owner.token, created.json().id, job)).statusCode).toBe(200);
    // The failed row has no price at all: still caught by Otherwise, never "No rule".
    expect(Object.fromEntries((await rows([], '', job)).map((r) => [r.isbn, r.decision]))).toEqual({
      [ISBN(1)]: 'Buy',
      [ISBN(2)]: 'Reject',
      [ISBN(3)]: 'Reject',
    });
    expect((await summary(owner.token, job)).json().outcomes).toEqual([
      { outcome: 'Buy', color: 'green', count: 1 },
      { outcome: 'Reject', color: 'red', count: 2 },
      { outcome: 'No rule', color: 'gray', count: 0 },
    ]);
    // Out of the owner's lists again, for the tests below that list them.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/rule-sets/${created.json().id}`, headers: bearer(owner.token) })).statusCode,
    ).toBe(200);
  });

  it('shows only Best Sources and statuses the condition lists offer (domain known-values)', async () => {
    const shown = (await rows([])) as unknown as Record<string, string | null>[];
    const values = (field: string) => shown.map((r) => r[field]).filter((v): v is string => v !== null);
    expect(values('best_source').length).toBeGreaterThan(0);
    for (const field of ['best_source', 'abe_books_status', 'alibris_status', 'pallet_iq_status'])
      for (const v of values(field)) expect(knownValues(field), field).toContain(v);
  });

  it('filters by decision like any column and sorts by rule order, No rule last', async () => {
    expect(await isbns([{ field: 'decision', operator: 'equals', value: 'Cheap' }])).toEqual([ISBN(5)]);
    expect(await isbns([{ field: 'decision', operator: 'equals', value: 'No rule' }])).toEqual([ISBN(2), ISBN(4)]);
    expect(await isbns([{ field: 'decision', operator: 'contains', value: 'abe' }])).toEqual([ISBN(3)]);
    expect(
      await isbns([
        { field: 'decision', operator: 'equals', value: 'No rule' },
        { field: 'best_price', operator: 'gt', value: '10' },
      ]),
    ).toEqual([ISBN(2)]);
    expect(await isbns([], '?sort_by=decision&sort_direction=asc')).toEqual([1, 3, 5, 2, 4].map(ISBN));
    // Descending reverses the whole order: No rule first.
    expect(await isbns([], '?sort_by=decision&sort_direction=desc')).toEqual([4, 2, 5, 3, 1].map(ISBN));
    const count = await req('POST', owner.token, `/jobs/${jobId}/comparison`, {
      filters: [{ field: 'decision', operator: 'equals', value: 'No rule' }],
    });
    expect(count.json()).toMatchObject({ count: 2, count_exact: true });
  });

  it('downloads the buy list: the comparison CSV filtered to one decision', async () => {
    const res = await req('POST', owner.token, `/jobs/${jobId}/comparison/download-csv`, {
      filters: [{ field: 'decision', operator: 'equals', value: 'Buy' }],
    });
    expect(res.statusCode).toBe(200);
    const records: string[][] = parse(res.body);
    expect(records[0]).toEqual(COMPARISON_CSV_FIELDS.map((f) => f.label));
    expect(records[0]).toContain('Decision');
    const col = (name: string) => COMPARISON_CSV_FIELDS.findIndex((f) => f.name === name);
    expect(records.slice(1).map((r) => [r[col('isbn')], r[col('decision')], r[col('best_price')]])).toEqual([[ISBN(1), 'Buy', '9.00']]);
  });

  it('judges with the current version, keeps that version when the set is edited, re-judges with it after prices change', async () => {
    await addVersion(t.ctx.db, ownSet.id, [rule('Reject', 'red', [['best_price', 'gt', 15]])]);
    const res = await judge(owner.token, ownSet.id);
    expect(res.json()).toMatchObject({ rule_set: { version: 2 } });
    expect(await decisions()).toMatchObject({ [ISBN(1)]: 'No rule', [ISBN(2)]: 'Reject' });
    // Edited again: the job still says (and re-judges with) version 2.
    await addVersion(t.ctx.db, ownSet.id, [rule('Keep', 'green', [['best_price', 'gt', 0]])]);
    expect((await summary(owner.token)).json()).toMatchObject({ rule_set: { version: 2 }, stale: false });

    // New prices for ISBN 1 (as a re-price's answers would write them): the decisions are stale until re-judged.
    await t.ctx.db.execute(
      sql`UPDATE abe_books_price_lookups SET total_listing_price = 40 WHERE isbn_lookup_job_id = ${jobId} AND isbn = ${ISBN(1)}`,
    );
    await t.ctx.db.execute(sql`UPDATE alibris_price_lookups SET price = 40 WHERE isbn_lookup_job_id = ${jobId} AND isbn = ${ISBN(1)}`);
    await t.ctx.db.execute(sql`UPDATE jobs SET updated_at = now() + interval '1 second' WHERE id = ${jobId}`);
    expect((await summary(owner.token)).json()).toMatchObject({ stale: true });
    expect(await decisions()).toMatchObject({ [ISBN(1)]: 'No rule' });

    const again = await rejudge(owner.token);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ rule_set: { version: 2 } });
    expect(await decisions()).toMatchObject({ [ISBN(1)]: 'Reject', [ISBN(2)]: 'Reject', [ISBN(3)]: 'No rule' });
    expect(again.json().outcomes).toEqual([
      { outcome: 'Reject', color: 'red', count: 2 },
      { outcome: 'No rule', color: 'gray', count: 3 },
    ]);
    // A later re-judge compares with the job's last change, which is now older: not stale.
    await t.ctx.db.execute(sql`UPDATE jobs SET updated_at = now() - interval '1 minute' WHERE id = ${jobId}`);
    expect((await summary(owner.token)).json()).toMatchObject({ stale: false });
  });

  it('lets a user judge with their own rule sets and the team default, a superuser too; another user sees no job', async () => {
    const list = await req('GET', owner.token, '/decisions/rule-sets');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      { id: teamSet.id, name: 'Team', is_team_default: true, version: 1, version_id: teamSet.versionId },
      { id: ownSet.id, name: 'Mine', is_team_default: false, version: 3, version_id: expect.any(Number) },
    ]);
    expect((await judge(owner.token, teamSet.id)).json()).toMatchObject({
      rule_set: { name: 'Team' },
      outcomes: [
        { outcome: 'Team pick', count: 4 },
        { outcome: 'No rule', count: 1 },
      ],
    });
    // A superuser may judge anyone's job, with their own rule sets or the team default.
    expect((await judge(adminToken, teamSet.id)).statusCode).toBe(200);
    expect((await rejudge(adminToken)).statusCode).toBe(200);
    expect((await summary(adminToken)).statusCode).toBe(200);
    // Another user: the job is not found, whatever the rule set.
    for (const res of [await judge(other.token, otherSet.id), await rejudge(other.token), await summary(other.token)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Job not found');
    }
    // Nobody signed in.
    for (const res of [await judge('', ownSet.id), await rejudge(''), await summary(''), await req('GET', '', '/decisions/rule-sets')]) {
      expect(res.statusCode).toBe(401);
    }
  });

  it('refuses a rule set that is not the user’s, is deleted or does not exist, and bad ids, with a 422 naming the field', async () => {
    const deleted = await insertRuleSet(t.ctx.db, owner.id, 'Gone', RULES_V1);
    await t.ctx.db.execute(sql`UPDATE rule_sets SET deleted_at = now() WHERE id = ${deleted.id}`);
    for (const [token, id] of [
      [owner.token, otherSet.id],
      [adminToken, ownSet.id],
      [owner.token, deleted.id],
      [owner.token, 999_999],
    ] as const) {
      const res = await judge(token, id);
      expect(res.statusCode, `rule set ${id}`).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'rule_set_id']);
    }
    for (const bad of ['x', -1, 2 ** 31, null]) {
      const res = await judge(owner.token, bad);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'rule_set_id']);
    }
    expect((await req('POST', owner.token, `/jobs/${jobId}/judge`, {})).json().detail[0].loc).toEqual(['body', 'rule_set_id']);
    expect((await req('POST', owner.token, '/jobs/0/judge', { rule_set_id: ownSet.id })).json().detail[0].loc).toEqual(['path', 'id']);
    // Judging is all or nothing: the refused attempts left the last decisions in place.
    expect((await summary(owner.token)).json()).toMatchObject({ rule_set: { name: 'Team' } });
  });

  it('judges a new job with the team default once the worker finishes its last lookup', async () => {
    const isbns = sampleIsbns(6, 12_000);
    const created = await req('POST', owner.token, '/jobs/from-isbns', {
      name: 'team default',
      abe_books: true,
      alibris: true,
      isbns: isbns.join('\n'),
    });
    expect(created.statusCode, created.body).toBe(200);
    const newJob = created.json().id as number;
    // Recorded at creation, not judged before the lookups end.
    expect((await summary(owner.token, newJob)).json()).toMatchObject({
      rule_set: { name: 'Team', version: 1 },
      judged_at: null,
      outcomes: [],
    });

    const sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0 });
    try {
      const parts = sandboxWorkerParts(sandbox, ['abe_books', 'alibris']);
      const worker = startWorker({ db: t.ctx.db, pollIntervalMs: 20, ...parts });
      await worker.idle();
      await worker.stop();
      expect(parts.jobEvents.ids.has(newJob)).toBe(true);
    } finally {
      await sandbox.close();
    }
    const res = (await summary(owner.token, newJob)).json();
    expect(res.judged_at).not.toBeNull();
    expect(res.stale).toBe(false);
    expect(res.outcomes).toEqual([
      { outcome: 'Team pick', color: 'violet', count: 6 },
      { outcome: 'No rule', color: 'gray', count: 0 },
    ]);
    expect((await rows([{ field: 'decision', operator: 'equals', value: 'Team pick' }], '', newJob)).length).toBe(6);
  });

  describe('in steps (issue 29: one statement over a big job held the embedded database for 36 s)', () => {
    const STEPPED_ROWS = 600;
    /** 50 rules of 20 conditions (more than the API accepts: written straight in): steps of a few hundred rows. Row g (price g) gets rule ⌊g/10⌋. */
    const costly = (outcome: string) =>
      Array.from({ length: 50 }, (_, i) =>
        rule(`${outcome} ${i}`, 'blue', [
          ...Array.from({ length: 19 }, () => ['isbn', 'contains', '978'] as [string, string, string]),
          ['best_price', 'lt', (i + 1) * 10],
        ]),
      );
    let stepped: number;
    let setA: { id: number; versionId: number };
    let setB: { id: number; versionId: number };

    beforeAll(async () => {
      stepped = await insertJob(owner.id, ['abe_books']);
      await t.ctx.db.execute(sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, lookup_status, total_listing_price)
        SELECT ${stepped}::int, '978' || lpad(g::text, 10, '0'), 'completed', g FROM generate_series(1, ${STEPPED_ROWS}::int) g`);
      setA = await insertRuleSet(t.ctx.db, owner.id, 'Costly A', costly('A'));
      setB = await insertRuleSet(t.ctx.db, owner.id, 'Costly B', costly('B'));
    });

    const decided = async () =>
      (
        await t.ctx.db.execute<{ outcome: string; n: number }>(
          sql`SELECT outcome, count(*)::int AS n FROM job_decisions WHERE job_id = ${stepped} GROUP BY outcome ORDER BY outcome`,
        )
      ).rows;
    /** The decisions' counts seen while `judging` runs, polled between its statements. */
    async function seenDuring(judging: Promise<unknown>): Promise<number[]> {
      let done = false;
      const seen: number[] = [];
      const finished = judging.finally(() => (done = true));
      while (!done) {
        const [row] = (await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM job_decisions WHERE job_id = ${stepped}`))
          .rows;
        seen.push(row?.n ?? 0);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await finished;
      return seen;
    }

    it.runIf(engine === 'pglite')('lets other statements in between its steps, and decides every row', async () => {
      await t.ctx.db.execute(sql`DELETE FROM job_decisions WHERE job_id = ${stepped}`);
      const seen = await seenDuring(judge(owner.token, setA.id, stepped));
      // Part of the job was judged while another statement ran: it went between two steps.
      expect(
        seen.some((n) => n > 0 && n < STEPPED_ROWS),
        JSON.stringify(seen),
      ).toBe(true);
      const counts = await decided();
      expect(counts.reduce((n, c) => n + c.n, 0)).toBe(STEPPED_ROWS);
      // Rows 1-9 → rule 0; 10 rows for each of rules 1-49; rows 500-600 match none.
      expect(counts.find((c) => c.outcome === 'A 0')?.n).toBe(9);
      expect(counts.find((c) => c.outcome === 'A 17')?.n).toBe(10);
      expect(counts.find((c) => c.outcome === 'No rule')?.n).toBe(101);
      expect((await summary(owner.token, stepped)).json()).toMatchObject({ rule_set: { id: setA.id }, stale: false });
    });

    it('leaves the job to the judge that started last, the earlier one stopping at its next step', async () => {
      await t.ctx.db.execute(sql`DELETE FROM job_decisions WHERE job_id = ${stepped}`);
      const first = judge(owner.token, setA.id, stepped);
      // B starts once A has judged part of the job: B decides every row.
      while ((await decided()).length === 0) await new Promise((resolve) => setImmediate(resolve));
      const second = judge(owner.token, setB.id, stepped);
      expect((await first).statusCode).toBe(200);
      expect((await second).statusCode).toBe(200);
      const counts = await decided();
      expect(
        counts.every((c) => c.outcome.startsWith('B ') || c.outcome === 'No rule'),
        JSON.stringify(counts),
      ).toBe(true);
      expect(counts.find((c) => c.outcome === 'B 0')?.n).toBe(9);
      expect(counts.reduce((n, c) => n + c.n, 0)).toBe(STEPPED_ROWS);
      expect((await summary(owner.token, stepped)).json()).toMatchObject({ rule_set: { id: setB.id } });
    });
  });
});
