// Price-lookup pages through the HTTP API: every operator, sorting, paging edges, 422s, access, CSV.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { MARKETPLACES, MARKETPLACE_LIST, MARKETPLACE_SLUGS } from '@app/domain/marketplaces';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { countUpTo } from '../src/db/bounded-count.ts';
import { lookupConditions } from '../src/lookups/repository.ts';
import type { UserRow } from '../src/users/schemas.ts';

describe.each(ENGINES)('price lookups on %s', (engine) => {
  let t: TestApp;
  let user: { id: string; token: string };
  let other: { id: string; token: string };
  let adminToken: string;
  let jobId: number;

  const query = (token: string, filters: unknown[], qs = '', slug = 'abe-books') =>
    t.app.inject({ method: 'POST', url: `/api/v1/${slug}/price-lookups${qs}`, headers: bearer(token), payload: { filters } });

  beforeAll(async () => {
    t = await startTestApp(engine);
    user = await createUser(t, 'lookups-user@example.com');
    other = await createUser(t, 'lookups-other@example.com');
    adminToken = await login(t.app, ADMIN.email, ADMIN.password);
    const mkJob = async (owner: string, name: string) =>
      (
        await t.ctx.db.execute<{ id: number }>(
          sql`INSERT INTO jobs (name, input_filename, owner_id, abe_books) VALUES (${name}, 'in.csv', ${owner}, true) RETURNING id`,
        )
      ).rows[0]!.id;
    jobId = await mkJob(user.id, 'mine');
    const otherJob = await mkJob(other.id, 'theirs');
    // 25 lookups of mine with prices 1..25, plus 3 of the other user's.
    for (let i = 1; i <= 25; i++) {
      await t.ctx.db.execute(
        sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, input_filename, lookup_status, listing_price, listing_condition, listing_url, created_at)
            VALUES (${jobId}, ${`97801314575${String(i).padStart(2, '0')}`}, 'in.csv', ${i % 5 === 0 ? 'failed' : 'completed'}, ${i}, ${i % 2 ? 'NEW BOOK' : 'NOT NEW BOOK'},
                    ${i === 1 ? '=HYPERLINK("x")' : `https://example.com/${i}`}, now() - (${String(i)} || ' minutes')::interval)`,
      );
    }
    for (let i = 1; i <= 3; i++) {
      await t.ctx.db.execute(
        sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, input_filename, listing_price, offers) VALUES (${otherJob}, '9780486229874', 'in.csv', 100, '[{"price": 100}]')`,
      );
    }
  });
  afterAll(() => t.close());

  it('counts exactly up to a bound, then says "more than"', async () => {
    expect(await countUpTo(t.ctx.db, sql`FROM abe_books_price_lookups`, 5)).toEqual({ count: 5, count_exact: false });
    expect(await countUpTo(t.ctx.db, sql`FROM abe_books_price_lookups`, 28)).toEqual({ count: 28, count_exact: true });
    expect((await query(adminToken, [])).json()).toMatchObject({ count: 28, count_exact: true });
  });

  it('a queued lookup waiting for a retry carries when and why; others carry nothing', async () => {
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`UPDATE abe_books_price_lookups SET lookup_status = 'queued', attempts = 2, last_error = 'Rate limited (429)', next_attempt_at = now() + interval '1 hour'
       WHERE id = (SELECT min(id) FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ${jobId}) RETURNING id`,
    );
    const res = await query(user.token, [{ field: 'lookup_status', operator: 'equals', value: 'queued' }]);
    const waiting = res.json().data.find((r: { id: number }) => r.id === rows[0]!.id);
    expect(waiting.retry_reason).toBe('Rate limited (429)');
    expect(Date.parse(waiting.retry_at) - Date.now()).toBeGreaterThan(50 * 60_000);
    const done = await query(user.token, [{ field: 'lookup_status', operator: 'equals', value: 'completed' }]);
    expect(done.json().data[0]).toMatchObject({ retry_at: null, retry_reason: null });
    await t.ctx.db.execute(
      sql`UPDATE abe_books_price_lookups SET lookup_status = 'completed', attempts = 0, last_error = NULL WHERE id = ${rows[0]!.id}`,
    );
  });

  it('pages 10 at a time, newest first by default, with the total count', async () => {
    const p1 = await query(user.token, [], '?skip=0&limit=10');
    expect(p1.statusCode).toBe(200);
    expect(p1.json().count).toBe(25);
    expect(p1.json().data).toHaveLength(10);
    expect(p1.json().data.map((r: { listing_price: number }) => r.listing_price)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const p3 = await query(user.token, [], '?skip=20&limit=10');
    expect(p3.json().data).toHaveLength(5);
    const past = await query(user.token, [], '?skip=30&limit=10');
    expect(past.json()).toEqual({ data: [], count: 25, count_exact: true });
    const zero = await query(user.token, [], '?limit=0');
    expect(zero.statusCode).toBe(422);
  });

  it('applies every text and number operator', async () => {
    const prices = async (filters: unknown[]) =>
      (await query(user.token, filters, '?sort_by=listing_price&sort_direction=asc&limit=100'))
        .json()
        .data.map((r: { listing_price: number }) => r.listing_price);
    expect(await prices([{ field: 'listing_price', operator: 'equals', value: '7' }])).toEqual([7]);
    expect(await prices([{ field: 'listing_price', operator: 'gt', value: '23' }])).toEqual([24, 25]);
    expect(await prices([{ field: 'listing_price', operator: 'gte', value: '23' }])).toEqual([23, 24, 25]);
    expect(await prices([{ field: 'listing_price', operator: 'lt', value: '3' }])).toEqual([1, 2]);
    expect(await prices([{ field: 'listing_price', operator: 'lte', value: '3' }])).toEqual([1, 2, 3]);
    expect(await prices([{ field: 'isbn', operator: 'equals', value: '9780131457512' }])).toEqual([12]);
    expect(await prices([{ field: 'isbn', operator: 'contains', value: '45752' }])).toEqual([20, 21, 22, 23, 24, 25]);
    expect(
      await prices([
        { field: 'listing_condition', operator: 'contains', value: 'not new' },
        { field: 'listing_price', operator: 'lt', value: '7' },
      ]),
    ).toEqual([2, 4, 6]);
    expect(await prices([{ field: 'lookup_status', operator: 'equals', value: 'failed' }])).toEqual([5, 10, 15, 20, 25]);
    expect(await prices([{ field: 'isbn', operator: 'contains', value: '%' }])).toEqual([]);
  });

  it('sorts each way on any column', async () => {
    const asc = (await query(user.token, [], '?sort_by=listing_price&sort_direction=asc&limit=3'))
      .json()
      .data.map((r: { listing_price: number }) => r.listing_price);
    const desc = (await query(user.token, [], '?sort_by=listing_price&sort_direction=desc&limit=3'))
      .json()
      .data.map((r: { listing_price: number }) => r.listing_price);
    expect(asc).toEqual([1, 2, 3]);
    expect(desc).toEqual([25, 24, 23]);
    const oldest = (await query(user.token, [], '?sort_by=created_at&sort_direction=asc&limit=1')).json().data[0].listing_price;
    expect(oldest).toBe(25);
  });

  it.each(['asc', 'desc'] as const)(
    'sorts %s on a column with empty values: the valued rows, then the empty ones, on every page',
    async (dir) => {
      // Read in two parts (db/nulls-last-page.ts); every page must match one ORDER BY … NULLS LAST.
      await t.ctx.db.execute(
        sql`UPDATE abe_books_price_lookups SET vendor_price = listing_price * 2 WHERE isbn_lookup_job_id = ${jobId} AND listing_price::int % 3 = 0`,
      );
      try {
        const { rows } = await t.ctx.db.execute<{ id: number }>(
          sql`SELECT id FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ${jobId} ORDER BY vendor_price ${sql.raw(dir)} NULLS LAST, id ${sql.raw(dir)}`,
        );
        const expected = rows.map((r) => Number(r.id));
        for (const [skip, limit] of [
          [0, 4],
          [4, 4],
          [6, 3],
          [8, 4],
          [10, 5],
          [20, 10],
          [24, 3],
          [30, 5],
        ] as const) {
          const res = await query(user.token, [], `?sort_by=vendor_price&sort_direction=${dir}&skip=${skip}&limit=${limit}`);
          expect(
            res.json().data.map((r: { id: number }) => r.id),
            `skip ${skip} limit ${limit}`,
          ).toEqual(expected.slice(skip, skip + limit));
        }
        const failed = await query(
          user.token,
          [{ field: 'lookup_status', operator: 'equals', value: 'failed' }],
          `?sort_by=vendor_price&sort_direction=${dir}`,
        );
        // Failed rows priced 5…25; those divisible by 3 have a vendor price (twice theirs), the rest none.
        expect(failed.json().data.map((r: { listing_price: number }) => r.listing_price)).toEqual(
          dir === 'desc' ? [15, 25, 20, 10, 5] : [15, 5, 10, 20, 25],
        );
      } finally {
        await t.ctx.db.execute(sql`UPDATE abe_books_price_lookups SET vendor_price = NULL WHERE isbn_lookup_job_id = ${jobId}`);
      }
    },
  );

  it('names an unknown field, operator or sort key in a 422', async () => {
    const f = await query(user.token, [{ field: 'nope', operator: 'equals', value: '1' }]);
    expect(f.statusCode).toBe(422);
    expect(f.json().detail[0]).toMatchObject({ loc: ['body', 'filters', 0, 'field'], msg: "Unknown filter field 'nope'" });
    const o = await query(user.token, [{ field: 'listing_price', operator: 'contains', value: '1' }]);
    expect(o.json().detail[0].loc).toEqual(['body', 'filters', 0, 'operator']);
    const s = await query(user.token, [], '?sort_by=offers');
    expect(s.json().detail[0]).toMatchObject({ loc: ['query', 'sort_by'], msg: "Unknown sort field 'offers'" });
    const d = await query(user.token, [], '?sort_direction=sideways');
    expect(d.json().detail[0].loc).toEqual(['query', 'sort_direction']);
  });

  it('shows users only their own lookups; superusers all', async () => {
    expect((await query(other.token, [])).json().count).toBe(3);
    expect((await query(adminToken, [])).json().count).toBe(28);
    const anon = await t.app.inject({ method: 'POST', url: '/api/v1/abe-books/price-lookups', payload: { filters: [] } });
    expect(anon.statusCode).toBe(401);
  });

  it('returns every offer of a lookup to its owner only', async () => {
    const theirs = (await query(other.token, [])).json().data[0].id;
    const ok = await t.app.inject({ method: 'GET', url: `/api/v1/abe-books/price-lookups/${theirs}/offers`, headers: bearer(other.token) });
    expect(ok.json()).toMatchObject({ id: theirs, isbn: '9780486229874', offers: [{ price: 100 }] });
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/api/v1/abe-books/price-lookups/${theirs}/offers`,
      headers: bearer(user.token),
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('exports the filtered rows as CSV, the same rows as the query, safe for spreadsheets', async () => {
    const filters = [{ field: 'listing_price', operator: 'lte', value: '12' }];
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/abe-books/price-lookups/download-csv',
      headers: bearer(user.token),
      payload: { filters },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/filename="abe_books_price_lookups_\d{8}T\d{6}\.csv"/);
    const records: string[][] = parse(res.body);
    const columns = MARKETPLACES.abe_books.fields.filter((f) => f.column);
    expect(records[0]).toEqual(columns.map((c) => c.label));
    const page = (await query(user.token, filters, '?limit=100')).json().data;
    const idIdx = columns.findIndex((c) => c.name === 'id');
    expect(records.slice(1).map((r) => Number(r[idIdx]))).toEqual(page.map((r: { id: number }) => r.id));
    const urlIdx = columns.findIndex((c) => c.name === 'listing_url');
    expect(records.slice(1).map((r) => r[urlIdx])).toContain(`'=HYPERLINK("x")`);
  });

  it('returns its database connection after every export (more exports than pool connections)', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/abe-books/price-lookups/download-csv',
        headers: bearer(user.token),
        payload: { filters: [] },
      });
      expect(res.body.trim().split('\n')).toHaveLength(26);
    }
    expect((await query(user.token, [])).json().count).toBe(25);
  }, 15_000);

  it('answers every marketplace’s rows whole: exactly its own fields, none taken for another’s', async () => {
    for (const m of MARKETPLACE_LIST) {
      if (m.id !== 'abe_books')
        await t.ctx.db.execute(
          sql`INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn, input_filename) VALUES (${jobId}, '9780131457577', 'in.csv')`,
        );
      const res = await query(user.token, [], '?limit=1', m.slug);
      expect(res.statusCode, m.slug).toBe(200);
      const row = res.json().data[0];
      expect(Object.keys(row).sort(), m.slug).toEqual(
        [...m.fields.map((f) => f.name), 'retry_at', 'retry_reason', 'answered_at', 'reused'].sort(),
      );
      if (m.id !== 'abe_books') await t.ctx.db.execute(sql`DELETE FROM ${sql.identifier(m.table)} WHERE id = ${row.id}`);
    }
  });

  it('an unknown marketplace is a 422 naming market, on every per-marketplace operation', async () => {
    const token = bearer(user.token);
    for (const res of [
      await t.app.inject({ method: 'POST', url: '/api/v1/nowhere/price-lookups', headers: token, payload: { filters: [] } }),
      await t.app.inject({ method: 'POST', url: '/api/v1/nowhere/price-lookups/download-csv', headers: token, payload: { filters: [] } }),
      await t.app.inject({ method: 'GET', url: '/api/v1/nowhere/price-lookups/1/offers', headers: token }),
    ]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ['path', 'market'] });
      expect(res.json().detail[0].msg).toContain(MARKETPLACE_SLUGS[0]);
    }
  });

  it("serves each answer text's `contains` from its trigram index, which holds only answered rows", async () => {
    // A new job's rows are all empty: their text indexes hold only rows with a value (a paste's GIN
    // entries for empty rows cost ~10 % of its insert), so the filter must still prove the predicate.
    const superuser = { is_superuser: true } as UserRow;
    for (const m of MARKETPLACE_LIST) {
      for (const field of m.fields.filter((f) => ['title', 'vendor_name', 'seller', 'sellername'].includes(f.name))) {
        const { where } = lookupConditions(m, superuser, { filters: [{ field: field.name, operator: 'contains', value: 'dickens' }] });
        // Over 5,000 answered rows, rolled back after: on an empty table any index is as cheap.
        let plan = '';
        await t.ctx.db
          .transaction(async (tx) => {
            await tx.execute(
              sql`INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn, lookup_status, ${sql.identifier(field.name)})
                  SELECT ${jobId}, '9780131457' || lpad(g::text, 3, '0'), 'completed', 'Book ' || g FROM generate_series(1, 5000) g`,
            );
            await tx.execute(sql`ANALYZE ${sql.identifier(m.table)}`);
            // The column's sort index (also only rows with a value) can answer by reading all of them:
            // put aside, so the plan shows whether the trigram index can serve the filter at all.
            await tx.execute(sql`DROP INDEX IF EXISTS ${sql.identifier(`${m.table}_${field.name}_sort_idx`)}`);
            await tx.execute(sql`SET LOCAL enable_seqscan = off`);
            const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(
              sql`EXPLAIN SELECT id FROM ${sql.identifier(m.table)} WHERE ${where}`,
            );
            plan = rows.map((r) => r['QUERY PLAN']).join('\n');
            tx.rollback();
          })
          .catch((err: unknown) => {
            if (!plan) throw err;
          });
        expect(plan, `${m.id}.${field.name}`).toContain(`${m.table}_${field.name}_trgm_idx`);
      }
    }
    const [indexed] = await t.ctx.db
      .execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname LIKE '%\_trgm\_idx' AND indexdef LIKE '%IS NOT NULL%' AND tablename LIKE '%price_lookups'`,
      )
      .then((r) => r.rows);
    expect(indexed?.n).toBe(9);
  });

  it('serves the other three marketplaces with their own fields', async () => {
    for (const m of [MARKETPLACES.biblio, MARKETPLACES.alibris, MARKETPLACES.pallet_iq]) {
      const res = await query(
        user.token,
        [{ field: m.fields.find((f) => f.type === 'number' && f.filterable)!.name, operator: 'gte', value: '0' }],
        '',
        m.slug,
      );
      expect(res.statusCode, m.slug).toBe(200);
      expect(res.json()).toEqual({ data: [], count: 0, count_exact: true });
    }
    const biblioNumber = await query(user.token, [{ field: 'ninety_day_fulfillment', operator: 'gt', value: '0.5' }], '', 'biblio');
    expect(biblioNumber.statusCode).toBe(200);
  });
});
