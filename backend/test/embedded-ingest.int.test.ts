// On the embedded database a big list is written in committed steps (issue 20): one 150k-ISBN
// transaction held PGlite, and with it every other request, for ~25 s. Other queries now run
// between the steps, and a step that fails takes the whole job away with it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_STEP_ROWS } from '../src/db/bulk-writes.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { ADMIN, bearer, login, startTestApp, type TestApp } from './helpers/app.ts';

const BOOKS = EMBEDDED_STEP_ROWS * 4;

describe('a big list on the embedded database', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp('pglite', { env: { UPLOAD_MAX_ISBNS: String(BOOKS + 10) } });
    token = await login(t.app, ADMIN.email, ADMIN.password);
  }, 60_000);
  afterAll(() => t.close());

  const paste = (name: string, isbns: readonly string[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(token),
      payload: { name, abe_books: true, biblio: true, alibris: true, pallet_iq: true, isbns: isbns.join('\n') },
    });
  const count = async (query: ReturnType<typeof sql>) => (await t.ctx.db.execute<{ n: number }>(query)).rows[0]?.n ?? -1;

  it('is written in steps other queries run between; the job ends whole, with its full totals', async () => {
    const isbns = sampleIsbns(BOOKS, 880_000);
    let done = false;
    const created = paste('big', isbns).finally(() => {
      done = true;
    });
    // What another request sees while the list is stored: part of it, not nothing-then-everything.
    const seen = new Set<number>();
    while (!done) {
      seen.add(await count(sql`SELECT count(*)::int AS n FROM alibris_price_lookups`));
      await new Promise((r) => setImmediate(r));
    }
    const res = await created;
    expect(res.statusCode, res.body).toBe(200);
    expect(
      [...seen].some((n) => n > 0 && n < BOOKS),
      `counts seen: ${[...seen].sort((a, b) => a - b).join(', ')}`,
    ).toBe(true);
    const job = res.json();
    for (const table of ['abe_books_price_lookups', 'biblio_price_lookups', 'alibris_price_lookups', 'pallet_iq_price_lookups']) {
      expect(await count(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE isbn_lookup_job_id = ${job.id}`)).toBe(BOOKS);
    }
    expect(job.alibris).toMatchObject({ enabled: true, total_isbns: BOOKS });
  }, 120_000);

  it('a step that fails takes the job and every row it wrote away', async () => {
    const isbns = sampleIsbns(EMBEDDED_STEP_ROWS * 2, 890_000);
    const poison = isbns[EMBEDDED_STEP_ROWS + 1];
    // A fault in the second step, after the job and the first rows are committed.
    await t.ctx.db.execute(
      sql.raw(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`),
    );
    await t.ctx.db.execute(
      sql.raw(
        `CREATE TRIGGER refuse_poison BEFORE INSERT ON biblio_price_lookups FOR EACH ROW WHEN (NEW.isbn = '${poison}') EXECUTE FUNCTION refuse_poison()`,
      ),
    );
    try {
      const jobsBefore = await count(sql`SELECT count(*)::int AS n FROM jobs`);
      const res = await paste('doomed', isbns);
      expect(res.statusCode).not.toBe(200);
      expect(res.body).not.toMatch(/disk full|at |stack/i);
      expect(await count(sql`SELECT count(*)::int AS n FROM jobs`)).toBe(jobsBefore);
      expect(
        await count(sql`SELECT count(*)::int AS n FROM abe_books_price_lookups WHERE isbn_lookup_job_id NOT IN (SELECT id FROM jobs)`),
      ).toBe(0);
      expect(await count(sql`SELECT count(*)::int AS n FROM job_progress WHERE job_id NOT IN (SELECT id FROM jobs)`)).toBe(0);
    } finally {
      await t.ctx.db.execute(sql.raw('DROP TRIGGER refuse_poison ON biblio_price_lookups'));
      await t.ctx.db.execute(sql.raw('DROP FUNCTION refuse_poison()'));
    }
  }, 120_000);
});
