// The scan page's API on both engines: a session is a job; a scan's verdict comes at once from the
// team's recent answers (final) or from what is known (provisional) until the worker answers the
// rest; copies, a purchase in another session, marks, undo, exactly-once client ids, access rules,
// and a scan's lookups dealt before a bulk job's.
import { ISBN_REJECTION } from '@app/domain/isbn';
import { MARKETPLACE_IDS, MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { SCAN_SESSION_FILENAME } from '@app/domain/scan';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMarketplaceSandbox } from '../src/marketplaces/sandbox.ts';
import { LookupQueue } from '../src/worker/queue.ts';
import { startWorker } from '../src/worker/worker.ts';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { insertRuleSet, rule } from './helpers/rule-sets.ts';
import { runSandboxWorkerToIdle, sandboxWorkerParts } from './helpers/worker.ts';

const BOOK = '9780306406157';
const OTHER_BOOK = '9780131457577';

describe.each(ENGINES)('scan sessions on %s', (engine) => {
  let t: TestApp;
  let scout: { id: string; token: string };
  let colleague: { id: string; token: string };
  let hidden: { id: string; token: string };
  let admin = '';

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string | null, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

  const runWorker = () => runSandboxWorkerToIdle(t.ctx.db);

  async function startSession(token: string, place?: string) {
    const res = await call('POST', '/scan/sessions', token, place ? { place } : {});
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; name: string; rule_set: { name: string } | null };
  }

  beforeAll(async () => {
    t = await startTestApp(engine);
    scout = await createUser(t, 'scout@example.com');
    colleague = await createUser(t, 'colleague@example.com');
    hidden = await createUser(t, 'hidden@example.com', 'user-password-1', { decisions_only: true });
    admin = await login(t.app, ADMIN.email, ADMIN.password);
    const { rows } = await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM users WHERE email = ${ADMIN.email}`);
    // The team default: anything priced at $1 or more is worth buying; an Otherwise-like catch-all after it.
    await insertRuleSet(
      t.ctx.db,
      rows[0]!.id,
      'Floor rules',
      [rule('Buy', 'green', [['best_price', 'gte', 1]]), rule('Reject', 'red', [['isbn', 'contains', '9']])],
      {
        teamDefault: true,
      },
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('starts a session as a job judged with the team default', async () => {
    const s = await startSession(scout.token, 'Church sale');
    expect(s.name).toMatch(/^Scan \d{4}-\d{2}-\d{2} · Church sale$/);
    expect(s.rule_set?.name).toBe('Floor rules');
    const job = await call('GET', `/jobs/${s.id}`, scout.token);
    expect(job.json()).toMatchObject({ input_filename: SCAN_SESSION_FILENAME, name: s.name });
    expect((await call('GET', '/scan/sessions', scout.token)).json().data[0]).toMatchObject({ id: s.id, scans: 0 });
  });

  it('refuses a code that is not a book, naming the field and the reason', async () => {
    const s = await startSession(scout.token);
    const upc = await call('POST', `/scan/sessions/${s.id}/scans`, scout.token, { code: '036000291452' });
    expect(upc.statusCode).toBe(422);
    expect(upc.json().detail[0].loc).toEqual(['body', 'code']);
    expect(upc.json().detail[0].msg).toBe(ISBN_REJECTION.upc);
  });

  it('gives a provisional verdict at once, then the final one once the worker answered', async () => {
    const s = await startSession(scout.token);
    const first = await call('POST', `/scan/sessions/${s.id}/scans`, scout.token, { code: BOOK });
    expect(first.statusCode, first.body).toBe(201);
    const scan = first.json();
    expect(scan.verdict.state).toBe('provisional');
    expect(scan.verdict.waiting_for.sort()).toEqual([...MARKETPLACE_IDS].sort());
    // Nothing known yet: no price, so the catch-all rule decides for now.
    expect(scan.verdict.outcome).toEqual({ name: 'Reject', color: 'red' });
    const progress = (await call('GET', `/jobs/${s.id}`, scout.token)).json();
    for (const m of MARKETPLACE_LIST) expect(progress[m.id]).toMatchObject({ total_isbns: 1, processed_isbns: 0 });

    await runWorker();
    const later = (await call('GET', `/scan/sessions/${s.id}/scans/${scan.id}`, scout.token)).json();
    expect(later.verdict.state).toBe('final');
    expect(later.verdict.waiting_for).toEqual([]);
    expect(later.verdict.figures.best_price).toBeGreaterThan(1);
    expect(later.verdict.outcome).toEqual({ name: 'Buy', color: 'green' });
    // The job page's comparison shows the scan with the same decision.
    const page = await call('POST', `/jobs/${s.id}/comparison`, scout.token, { filters: [] });
    expect(page.json().data).toEqual([expect.objectContaining({ isbn: BOOK, decision: 'Buy' })]);
  });

  it("is final at once on the team's recent answers, and counts copies, purchases elsewhere and marks", async () => {
    // BOOK was answered by every marketplace in the previous test (the team's stored answers).
    const first = await startSession(scout.token);
    const a = (await call('POST', `/scan/sessions/${first.id}/scans`, scout.token, { code: '978-0-306-40615-7' })).json();
    expect(a.verdict).toMatchObject({ state: 'final', outcome: { name: 'Buy' } });
    const progress = (await call('GET', `/jobs/${first.id}`, scout.token)).json();
    for (const m of MARKETPLACE_LIST) expect(progress[m.id]).toMatchObject({ total_isbns: 1, processed_isbns: 1 });
    // The stored comparison row (what a sort by best price reads) holds the verdict's figures.
    const sorted = await call('POST', `/jobs/${first.id}/comparison?sort_by=best_price&sort_direction=desc`, scout.token, { filters: [] });
    expect(sorted.json().data).toEqual([expect.objectContaining({ isbn: BOOK, best_price: a.verdict.figures.best_price })]);
    const { rows: stored } = await t.ctx.db.execute<{ best_price: number }>(
      sql`SELECT best_price FROM comparison_rows WHERE job_id = ${first.id}`,
    );
    expect(stored.map((r) => Number(r.best_price))).toEqual([a.verdict.figures.best_price]);
    const again = (await call('POST', `/scan/sessions/${first.id}/scans`, scout.token, { code: BOOK })).json();
    expect(again.copies).toBe(2);
    const marked = await call('PATCH', `/scan/sessions/${first.id}/scans/${a.id}`, scout.token, { mark: 'bought' });
    expect(marked.json().mark).toBe('bought');

    const second = await startSession(colleague.token);
    const b = (await call('POST', `/scan/sessions/${second.id}/scans`, colleague.token, { code: BOOK })).json();
    expect(b.copies).toBe(1);
    expect(b.bought_elsewhere).toMatchObject({ by: 'scout', session: first.name });

    const detail = (await call('GET', `/scan/sessions/${first.id}`, scout.token)).json();
    expect(detail.scans.map((x: { id: number }) => x.id)).toEqual([again.id, a.id]);
    expect(detail.outcomes).toEqual([{ name: 'Buy', color: 'green', scans: 2 }]);
    expect(detail.bought.scans).toBe(1);
    expect(detail.bought.estimated_profit).toBe(a.verdict.figures.estimated_profit);
  });

  it('joins a scan sent twice once, and undoes scans down to the ISBN leaving the job', async () => {
    const s = await startSession(scout.token);
    const clientId = '6f1c1a52-6d0e-4c55-9d0a-4c1f2d3e4f50';
    const one = await call('POST', `/scan/sessions/${s.id}/scans`, scout.token, { code: OTHER_BOOK, client_id: clientId });
    const two = await call('POST', `/scan/sessions/${s.id}/scans`, scout.token, { code: OTHER_BOOK, client_id: clientId });
    expect([one.statusCode, two.statusCode]).toEqual([201, 200]);
    expect(two.json().id).toBe(one.json().id);
    expect(two.json().copies).toBe(1);
    expect((await call('DELETE', `/scan/sessions/${s.id}/scans/${one.json().id}`, scout.token)).statusCode).toBe(204);
    const progress = (await call('GET', `/jobs/${s.id}`, scout.token)).json();
    for (const m of MARKETPLACE_LIST) expect(progress[m.id]).toMatchObject({ total_isbns: 0, processed_isbns: 0 });
    const page = await call('POST', `/jobs/${s.id}/comparison`, scout.token, { filters: [] });
    expect(page.json().data).toEqual([]);
    expect((await call('DELETE', `/scan/sessions/${s.id}/scans/${one.json().id}`, scout.token)).statusCode).toBe(404);
  });

  it('keeps sessions to their owner (and superusers), and anonymous callers out', async () => {
    const s = await startSession(scout.token);
    expect((await call('GET', `/scan/sessions/${s.id}`, null)).statusCode).toBe(401);
    expect((await call('GET', `/scan/sessions/${s.id}`, colleague.token)).statusCode).toBe(404);
    expect((await call('POST', `/scan/sessions/${s.id}/scans`, colleague.token, { code: BOOK })).statusCode).toBe(404);
    expect((await call('GET', `/scan/sessions/${s.id}`, admin)).statusCode).toBe(200);
    // A job that is not a scan session is not one.
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`INSERT INTO jobs (name, input_filename, owner_id, abe_books) VALUES ('list', 'list.csv', ${scout.id}, true) RETURNING id`,
    );
    expect((await call('GET', `/scan/sessions/${rows[0]!.id}`, scout.token)).statusCode).toBe(404);
  });

  it('shows a decisions-only account outcomes and never a figure', async () => {
    const s = await startSession(hidden.token);
    const scan = (await call('POST', `/scan/sessions/${s.id}/scans`, hidden.token, { code: BOOK })).json();
    expect(scan.verdict.outcome).toEqual({ name: 'Buy', color: 'green' });
    expect(scan.verdict.figures).toBeNull();
    await call('PATCH', `/scan/sessions/${s.id}/scans/${scan.id}`, hidden.token, { mark: 'bought' });
    const detail = (await call('GET', `/scan/sessions/${s.id}`, hidden.token)).json();
    expect(detail.bought).toEqual({ scans: 1, cost: null, estimated_profit: null });
    expect(JSON.stringify(detail)).not.toMatch(/best_price|estimated_profit":\d/);
    expect((await call('GET', `/jobs/${s.id}`, hidden.token)).statusCode).toBe(403);
    expect((await call('GET', `/books/${BOOK}`, hidden.token)).json().detail).toBe('Your account shows decisions only.');
    expect((await call('GET', '/users/me', hidden.token)).json()).toMatchObject({ decisions_only: true });
  });

  it("wakes an idle worker: a scan's lookups are asked at once, not at the worker's next poll", async () => {
    const sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0 });
    // A worker that found nothing to do and would not look again for a minute.
    const worker = startWorker({
      db: t.ctx.db,
      pollIntervalMs: 60_000,
      listen: t.ctx.listen,
      ...sandboxWorkerParts(sandbox, MARKETPLACE_IDS),
    });
    try {
      await worker.idle();
      const s = await startSession(scout.token);
      const scan = (await call('POST', `/scan/sessions/${s.id}/scans`, scout.token, { code: '9780596007126' })).json();
      expect(scan.verdict.state).toBe('provisional');
      await vi.waitFor(
        async () => expect((await call('GET', `/scan/sessions/${s.id}/scans/${scan.id}`, scout.token)).json().verdict.state).toBe('final'),
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await worker.stop();
      await sandbox.close();
    }
  });

  it("deals a scan's lookups before a bulk job's queued rows", async () => {
    const bulk = await t.ctx.db.execute<{ id: number }>(
      sql`INSERT INTO jobs (name, input_filename, owner_id, abe_books) VALUES ('bulk', 'bulk.csv', ${colleague.id}, true) RETURNING id`,
    );
    const bulkId = bulk.rows[0]!.id;
    const isbns = Array.from({ length: 300 }, (_, i) => `978${String(i).padStart(10, '0')}`);
    await t.ctx.db.execute(
      sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn) SELECT ${bulkId}::int, unnest(${sql.param(isbns)}::text[])`,
    );
    await t.ctx.db.execute(sql`INSERT INTO job_progress (job_id, source, total) VALUES (${bulkId}, 'abe_books', ${isbns.length})`);
    const s = await startSession(scout.token);
    const scan = (await call('POST', `/scan/sessions/${s.id}/scans`, scout.token, { code: '9780262033848' })).json();
    expect(scan.verdict.state).toBe('provisional');
    const queue = new LookupQueue(t.ctx.db, MARKETPLACE_LIST.find((m) => m.id === 'abe_books')!);
    // One row to deal: the scan's, though the bulk job's 300 were queued first.
    expect(await queue.claim(1, 60_000)).toEqual([
      expect.objectContaining({ isbn: '9780262033848', isbn_lookup_job_id: s.id, interactive: true }),
    ]);
    const next = await queue.claim(5, 60_000);
    expect(next.map((r) => [r.isbn_lookup_job_id, r.interactive])).toEqual(Array(5).fill([bulkId, false]));
    await t.ctx.db.execute(sql`DELETE FROM jobs WHERE id = ${bulkId}`);
  });
});
