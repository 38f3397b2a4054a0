// On the embedded database cancel, retry failed, re-price and delete move a big job's lookups in committed
// steps (issue 20: cancelling a 150k job held every request for ~25 s). Other queries run between
// the steps; after each action the progress counters match the rows, the audit event is written
// once with the total, and a second action on the job while the steps run answers 409.
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_STEP_ROWS } from '../src/db/bulk-writes.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { ADMIN, bearer, login, startTestApp, type TestApp } from './helpers/app.ts';

const BOOKS = EMBEDDED_STEP_ROWS * 4 + 7;
const SOURCES: MarketplaceId[] = ['biblio', 'alibris'];

describe('job actions on a big job on the embedded database', () => {
  let t: TestApp;
  let token: string;
  let jobId: number;

  beforeAll(async () => {
    t = await startTestApp('pglite', { env: { UPLOAD_MAX_ISBNS: String(BOOKS + 10) } });
    token = await login(t.app, ADMIN.email, ADMIN.password);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(token),
      payload: { name: 'big', biblio: true, alibris: true, isbns: sampleIsbns(BOOKS, 770_000).join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
    jobId = res.json().id;
  }, 120_000);
  afterAll(() => t.close());

  // With a body, so the request is complete at once (inject's empty one never ends; the body timeout would answer).
  const post = (action: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/jobs/${jobId}/${action}`, headers: bearer(token), payload: {} });
  const count = async (query: ReturnType<typeof sql>) => (await t.ctx.db.execute<{ n: number }>(query)).rows[0]?.n ?? -1;
  const withStatus = (m: MarketplaceId, statuses: string[]) =>
    count(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(MARKETPLACES[m].table)} WHERE isbn_lookup_job_id = ${jobId}
          AND lookup_status IN (${sql.join(
            statuses.map((s) => sql`${s}`),
            sql`, `,
          )})`,
    );

  /** Runs the action while another "request" counts rows of `status` between its statements. */
  async function watched(action: string, status: string) {
    let done = false;
    const answer = post(action).finally(() => {
      done = true;
    });
    const seen = new Set<number>();
    let second: Awaited<ReturnType<typeof post>> | undefined;
    while (!done) {
      const n = await withStatus('alibris', [status]);
      seen.add(n);
      // Once the steps have begun, a second action on the job.
      if (n > 0 && !done && !second) second = await post(action === 'cancel' ? 'reprice' : 'cancel');
      await new Promise((r) => setImmediate(r));
    }
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    if (!second) throw new Error('the action ended before a second one could be tried');
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json().detail).toMatch(/another action/i);
    return { body: res.json(), seen: [...seen].sort((a, b) => a - b) };
  }

  /** Every source's processed counter equals its finished rows (what a poll shows matches the rows). */
  async function expectProgressMatchesRows() {
    for (const m of SOURCES) {
      const { rows } = await t.ctx.db.execute<{ processed: number; total: number }>(
        sql`SELECT processed, total FROM job_progress WHERE job_id = ${jobId} AND source = ${m}`,
      );
      const finished = await withStatus(m, ['completed', 'no_offers_available', 'failed', 'cancelled']);
      expect(rows[0], m).toEqual({ processed: finished, total: BOOKS });
    }
  }

  const auditEvents = (action: string) =>
    t.ctx.db.execute<{ details: { lookups_affected: number } }>(
      sql`SELECT details FROM audit_events WHERE action = ${action} AND target_id = ${String(jobId)}`,
    );

  it('cancels in steps others run between; counters match the rows; one audit event with the total', async () => {
    // Some rows already finished, so the cancel moves only the queued ones.
    for (const m of SOURCES) {
      const table = sql.identifier(MARKETPLACES[m].table);
      await t.ctx.db.execute(sql`WITH done AS (UPDATE ${table} SET lookup_status = 'failed' WHERE isbn_lookup_job_id = ${jobId} AND id % 10 = 0 RETURNING 1)
        UPDATE job_progress SET processed = processed + (SELECT count(*) FROM done) WHERE job_id = ${jobId} AND source = ${m}`);
    }
    const failed = await withStatus('alibris', ['failed']);
    const { body, seen } = await watched('cancel', 'cancelled');
    expect(
      seen.some((n) => n > 0 && n < BOOKS - failed),
      `cancelled counts seen: ${seen.join(', ')}`,
    ).toBe(true);
    expect(body.lookups_affected).toBe(2 * (BOOKS - failed));
    expect(body.cancelled_at).not.toBeNull();
    await expectProgressMatchesRows();
    for (const m of SOURCES) expect(await withStatus(m, ['queued'])).toBe(0);
    const events = await auditEvents('job.cancelled');
    expect(events.rows.map((r) => r.details.lookups_affected)).toEqual([2 * (BOOKS - failed)]);
    // Cancelling a cancelled job changes nothing.
    expect((await post('cancel')).statusCode).toBe(200);
  }, 120_000);

  it('retries the failed and cancelled in steps; the job runs again', async () => {
    const { body, seen } = await watched('retry-failed', 'queued');
    expect(
      seen.some((n) => n > 0 && n < BOOKS),
      `queued counts seen: ${seen.join(', ')}`,
    ).toBe(true);
    expect(body.lookups_affected).toBe(2 * BOOKS);
    expect(body.cancelled_at).toBeNull();
    await expectProgressMatchesRows();
    expect((await auditEvents('job.retried')).rows.map((r) => r.details.lookups_affected)).toEqual([2 * BOOKS]);
  }, 120_000);

  it('re-prices in steps; a cancelled job has nothing left, so a cancel after it answers 409', async () => {
    for (const m of SOURCES) {
      const table = sql.identifier(MARKETPLACES[m].table);
      await t.ctx.db.execute(sql`WITH done AS (UPDATE ${table} SET lookup_status = 'completed' WHERE isbn_lookup_job_id = ${jobId} RETURNING 1)
        UPDATE job_progress SET processed = processed + (SELECT count(*) FROM done) WHERE job_id = ${jobId} AND source = ${m}`);
    }
    await expectProgressMatchesRows();
    expect((await post('cancel')).statusCode).toBe(409);
    const { body, seen } = await watched('reprice', 'queued');
    expect(
      seen.some((n) => n > 0 && n < BOOKS),
      `queued counts seen: ${seen.join(', ')}`,
    ).toBe(true);
    expect(body.lookups_affected).toBe(2 * BOOKS);
    expect(body.repriced_at).not.toBeNull();
    await expectProgressMatchesRows();
    expect((await auditEvents('job.repriced')).rows.map((r) => r.details.lookups_affected)).toEqual([2 * BOOKS]);
  }, 120_000);

  it('deletes in steps others run between, the counters following the rows; then the job is gone with all it held', async () => {
    let done = false;
    const answer = t.app.inject({ method: 'DELETE', url: `/api/v1/jobs/${jobId}`, headers: bearer(token) }).finally(() => {
      done = true;
    });
    const seen = new Set<number>();
    while (!done) {
      const { rows } = await t.ctx.db.execute<{ rows: number; total: number | null }>(
        sql`SELECT (SELECT count(*)::int FROM alibris_price_lookups WHERE isbn_lookup_job_id = ${jobId}) AS rows,
                   (SELECT total FROM job_progress WHERE job_id = ${jobId} AND source = 'alibris') AS total`,
      );
      const r = rows[0];
      if (r && r.total !== null) {
        expect(r.total, 'the counter follows the rows').toBe(r.rows);
        seen.add(r.rows);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    expect(
      [...seen].some((n) => n > 0 && n < BOOKS),
      `alibris rows seen: ${[...seen].join(', ')}`,
    ).toBe(true);
    for (const table of ['jobs', 'job_progress', 'job_decisions', 'comparison_rows', 'biblio_price_lookups', 'alibris_price_lookups']) {
      const column = table === 'jobs' ? 'id' : table.endsWith('_lookups') ? 'isbn_lookup_job_id' : 'job_id';
      expect(
        await count(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${jobId}`),
        table,
      ).toBe(0);
    }
    expect((await auditEvents('job.deleted')).rows).toHaveLength(1);
  }, 120_000);
});
