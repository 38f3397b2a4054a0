// The audit trail on both engines: every job, user and sign-in action writes its event in its own
// transaction (an action that fails writes none, and a step that fails undoes the action), no stored
// event holds a password or a token, the list and CSV follow the other lists' filter/sort/paging
// rules for superusers only, and old events are pruned in batches.
import { AuditPruner, pruneAuditEvents } from '../src/audit/retention.ts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, jobProgress, jobs, LOOKUP_TABLES } from '../src/db/schema.ts';
import { cancelJob } from '../src/jobs/control.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { ADMIN, bearer, changeOwnPassword, createUser, login, postLoginForm, startTestApp, type TestApp } from './helpers/app.ts';
import { countRows, ENGINES } from './helpers/databases.ts';
import { postJobUpload } from './helpers/multipart.ts';
import { userById } from '../src/users/repository.ts';

const DAY = 86_400_000;

describe.each(ENGINES)('audit trail on %s', (engine) => {
  let t: TestApp;
  let admin = '';
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  /** Every secret the suite used: none may be stored in any event. */
  const secrets: string[] = [ADMIN.password];

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = await login(t.app, ADMIN.email, ADMIN.password);
    owner = await createUser(t, 'audit-owner@example.com', 'owner-password-1');
    other = await createUser(t, 'audit-other@example.com', 'other-password-1');
    secrets.push('owner-password-1', 'other-password-1', admin, owner.token, other.token);
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

  /** The events matching these filters, newest first (through the API, as the page reads them). */
  async function events(filters: { field: string; operator: string; value: string }[], query = '') {
    const res = await api('POST', `/audit-events${query}`, admin, { filters });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Record<string, unknown>[]; count: number; count_exact: boolean };
  }
  const eventsOf = async (action: string, targetId: string | number) =>
    (
      await events([
        { field: 'action', operator: 'equals', value: action },
        { field: 'target_id', operator: 'equals', value: String(targetId) },
      ])
    ).data;

  async function upload(name: string, token = owner.token): Promise<number> {
    const res = await postJobUpload(
      t.app,
      token,
      { name, abe_books: true, biblio: true },
      {
        name: 'audit.csv',
        data: ['isbn', ...sampleIsbns(3)].join('\n'),
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  describe('job actions', () => {
    it('records an upload, a pasted list and each job action with who, what and from where', async () => {
      const jobId = await upload('Audited upload');
      const [created] = await eventsOf('job.created', jobId);
      expect(created).toMatchObject({
        actor_id: owner.id,
        actor_email: 'audit-owner@example.com',
        target_type: 'job',
        target_label: 'Audited upload',
        client_address: '127.0.0.1',
        details: { input_filename: 'audit.csv', isbns: 3, marketplaces: ['abe-books', 'biblio'] },
      });

      const pasted = await api('POST', '/jobs/from-isbns', owner.token, {
        name: 'Pasted',
        alibris: true,
        isbns: sampleIsbns(2).join('\n'),
      });
      expect(pasted.statusCode, pasted.body).toBe(200);
      expect((await eventsOf('job.created', pasted.json().id))[0]).toMatchObject({ details: { input_filename: 'pasted list', isbns: 2 } });

      for (const [action, event] of [
        ['cancel', 'job.cancelled'],
        ['retry-failed?market=biblio', 'job.retried'],
        ['reprice', 'job.repriced'],
      ] as const) {
        const res = await api('POST', `/jobs/${jobId}/${action}`, owner.token);
        expect(res.statusCode, res.body).toBe(200);
        const [e] = await eventsOf(event, jobId);
        expect(e, event).toMatchObject({
          actor_id: owner.id,
          details: { owner_id: owner.id, lookups_affected: res.json().lookups_affected },
        });
      }
      expect((await eventsOf('job.retried', jobId))[0]?.details).toMatchObject({ market: 'biblio' });

      // A superuser deleting someone's job: the superuser acts, the owner is named, the label outlives the job.
      expect((await api('DELETE', `/jobs/${jobId}`, admin)).statusCode).toBe(200);
      expect((await eventsOf('job.deleted', jobId))[0]).toMatchObject({
        actor_email: ADMIN.email,
        target_label: 'Audited upload',
        details: { owner_id: owner.id },
      });
    });

    it('writes no event when the action fails, and undoes the action when its event cannot be written', async () => {
      const jobId = await upload('Finished');
      // Every lookup finished: a cancel has nothing to do and answers 409 from inside its transaction.
      for (const m of ['abe_books', 'biblio'] as const) {
        const table = LOOKUP_TABLES[m];
        await t.ctx.db.update(table).set({ lookup_status: 'completed' }).where(eq(table.isbn_lookup_job_id, jobId));
      }
      await t.ctx.db
        .update(jobProgress)
        .set({ processed: sql`${jobProgress.total}` })
        .where(eq(jobProgress.job_id, jobId));
      expect((await api('POST', `/jobs/${jobId}/cancel`, owner.token)).statusCode).toBe(409);
      expect(await eventsOf('job.cancelled', jobId)).toEqual([]);
      // Someone else's job is not found: nothing happened, nothing is recorded.
      expect((await api('DELETE', `/jobs/${jobId}`, other.token)).statusCode).toBe(404);
      expect(await eventsOf('job.deleted', jobId)).toEqual([]);

      // The other way round: a failing step rolls the cancel back.
      const running = await upload('Running');
      const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, running));
      const failingStep = async () => {
        throw new Error('the audit write failed');
      };
      await expect(cancelJob(t.ctx.db, job as typeof jobs.$inferSelect, failingStep)).rejects.toThrow('the audit write failed');
      const [after] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, running));
      expect(after?.cancelled_at).toBeNull();
      expect((await api('GET', `/jobs/${running}`, owner.token)).json().abe_books.processed_isbns).toBe(0);
    });
  });

  describe('users and sign-ins', () => {
    it('records users created, changed and deleted by a superuser, naming changed fields, never their values', async () => {
      const created = await api('POST', '/users/', admin, { email: 'managed@example.com', password: 'managed-password-1' });
      expect(created.statusCode).toBe(200);
      const id = created.json().id as string;
      secrets.push('managed-password-1', 'reset-by-admin-1');
      expect((await eventsOf('user.created', id))[0]).toMatchObject({
        actor_email: ADMIN.email,
        target_label: 'managed@example.com',
        details: { is_superuser: false, is_active: true, decisions_only: false },
      });
      const patched = await api('PATCH', `/users/${id}`, admin, { full_name: 'Managed', password: 'reset-by-admin-1', is_active: false });
      expect(patched.statusCode).toBe(200);
      expect((await eventsOf('user.updated', id))[0]?.details).toEqual({
        fields: ['full_name', 'is_active', 'password'],
        is_superuser: false,
        is_active: false,
        decisions_only: false,
      });
      expect((await api('DELETE', `/users/${id}`, admin)).statusCode).toBe(200);
      expect((await eventsOf('user.deleted', id))[0]).toMatchObject({ actor_email: ADMIN.email, target_label: 'managed@example.com' });

      // A taken email is refused: no user, no event.
      const createdEvents = async () => (await events([{ field: 'action', operator: 'equals', value: 'user.created' }])).count;
      const count = await createdEvents();
      const taken = await api('POST', '/users/', admin, { email: 'Audit-Owner@example.com', password: 'whatever-pass-1' });
      expect(taken.statusCode).toBe(400);
      expect(await createdEvents()).toBe(count);
    });

    it('records self-service signup, profile and password changes, a password reset and deleting oneself', async () => {
      secrets.push('signup-password-1', 'changed-password-1', 'reset-password-1');
      const signup = await api('POST', '/users/signup', '', { email: 'self@example.com', password: 'signup-password-1' });
      expect(signup.statusCode).toBe(200);
      const id = signup.json().id as string;
      expect((await eventsOf('user.created', id))[0]).toMatchObject({
        actor_id: id,
        actor_email: 'self@example.com',
        details: { signup: true },
      });

      const token = await login(t.app, 'self@example.com', 'signup-password-1');
      expect((await api('PATCH', '/users/me', token, { full_name: 'Self' })).statusCode).toBe(200);
      expect((await eventsOf('user.updated', id))[0]).toMatchObject({ actor_id: id, details: { fields: ['full_name'] } });

      const changed = await changeOwnPassword(t.app, token, 'signup-password-1', 'changed-password-1');
      expect(changed.statusCode).toBe(200);
      secrets.push(token, changed.json().access_token);
      expect(await eventsOf('auth.password_changed', id)).toHaveLength(1);
      // A wrong current password changes nothing and records nothing.
      expect((await changeOwnPassword(t.app, changed.json().access_token, 'wrong-current-1', 'x-password-2')).statusCode).toBe(400);
      expect(await eventsOf('auth.password_changed', id)).toHaveLength(1);

      const user = await userById(t.ctx.db, id);
      const resetToken = await t.ctx.tokens.createResetToken('self@example.com', user?.password_changed_at ?? new Date());
      secrets.push(resetToken);
      const reset = () => api('POST', '/reset-password/', '', { token: resetToken, new_password: 'reset-password-1' });
      expect((await reset()).statusCode).toBe(200);
      expect((await reset()).statusCode).toBe(400);
      expect(await eventsOf('auth.password_reset', id)).toMatchObject([{ actor_id: id, details: {} }]);

      const fresh = await login(t.app, 'self@example.com', 'reset-password-1');
      secrets.push(fresh);
      expect((await api('DELETE', '/users/me', fresh)).statusCode).toBe(200);
      // The user is gone; the events still read who it was.
      expect((await eventsOf('user.deleted', id))[0]).toMatchObject({
        actor_id: id,
        actor_email: 'self@example.com',
        details: { self: true },
      });
    });

    it('records sign-ins that succeed and fail with the email tried and the address, never the password', async () => {
      secrets.push('guessed-password-1');
      const from = '203.0.113.7';
      const ok = await postLoginForm(t.app, { username: 'Audit-Owner@example.com', password: 'owner-password-1' }, { from });
      expect(ok.statusCode).toBe(200);
      secrets.push(ok.json().access_token);
      const wrong = await postLoginForm(t.app, { username: 'audit-owner@example.com', password: 'guessed-password-1' }, { from });
      const unknown = await postLoginForm(t.app, { username: 'nobody@example.com', password: 'guessed-password-1' }, { from });
      expect([wrong.statusCode, unknown.statusCode]).toEqual([400, 400]);

      const fromThere = await events([{ field: 'client_address', operator: 'equals', value: from }], '?sort_by=id&sort_direction=asc');
      expect(fromThere.data.map((e) => [e.action, e.actor_email, e.target_id, e.target_label, e.details])).toEqual([
        ['auth.login_succeeded', 'audit-owner@example.com', owner.id, 'audit-owner@example.com', {}],
        ['auth.login_failed', null, owner.id, 'audit-owner@example.com', { email: 'audit-owner@example.com', reason: 'wrong_password' }],
        ['auth.login_failed', null, null, 'nobody@example.com', { email: 'nobody@example.com', reason: 'unknown_email' }],
      ]);
    });

    it('keeps what was typed as the username only when it looks like an email and is not the password typed twice', async () => {
      // People type their password into the username field: it must not reach the trail (issue 29).
      secrets.push('Tr0ub4dor&3-typed-as-username', 'twice@example.com-as-password');
      const from = '203.0.113.29';
      const typed = [
        { username: 'Tr0ub4dor&3-typed-as-username', password: 'anything-1' },
        { username: 'twice@example.com-as-password', password: 'twice@example.com-as-password' },
        { username: 'Same-Twice@example.com', password: 'same-twice@example.com' },
        { username: 'audit-other@example.com', password: 'Audit-Other@example.com' },
        { username: 'kept@example.com', password: 'wrong-password-1' },
      ];
      for (const fields of typed) expect((await postLoginForm(t.app, fields, { from })).statusCode).toBe(400);
      secrets.push('same-twice@example.com', 'Audit-Other@example.com');
      const fromThere = await events([{ field: 'client_address', operator: 'equals', value: from }], '?sort_by=id&sort_direction=asc');
      expect(fromThere.data.map((e) => [e.target_id, e.target_label, e.details])).toEqual([
        [null, null, { reason: 'unknown_email', email_withheld: true }],
        [null, null, { reason: 'unknown_email', email_withheld: true }],
        [null, null, { reason: 'unknown_email', email_withheld: true }],
        [other.id, null, { reason: 'wrong_password', email_withheld: true }],
        [null, 'kept@example.com', { email: 'kept@example.com', reason: 'unknown_email' }],
      ]);
    });

    it('records signing out everywhere, by whom and from where', async () => {
      const { id, token } = await createUser(t, 'everywhere@example.com', 'everywhere-password-1');
      secrets.push('everywhere-password-1', token);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/login/sign-out-everywhere',
        headers: bearer(token),
        remoteAddress: '203.0.113.30',
      });
      expect(res.statusCode).toBe(200);
      expect(await eventsOf('auth.signed_out_everywhere', id)).toMatchObject([
        {
          actor_id: id,
          actor_email: 'everywhere@example.com',
          target_type: 'user',
          target_label: 'everywhere@example.com',
          client_address: '203.0.113.30',
        },
      ]);
      // Once signed out the token can do nothing more, and nothing more is recorded.
      const again = await t.app.inject({ method: 'POST', url: '/api/v1/login/sign-out-everywhere', headers: bearer(token) });
      expect(again.statusCode).toBe(403);
      expect(await eventsOf('auth.signed_out_everywhere', id)).toHaveLength(1);
    });

    it('stores no password, token or reset link in any event', async () => {
      const { rows } = await t.ctx.db.execute<{ text: string }>(sql`SELECT row_to_json(a)::text AS text FROM ${auditEvents} a`);
      expect(rows.length).toBeGreaterThan(10);
      const all = rows.map((r) => r.text).join('\n');
      for (const secret of secrets) expect(all).not.toContain(secret);
      expect(all).not.toMatch(/reset-password\?token|\$argon2|"(password|new_password|access_token|token)"\s*:/);
    });
  });

  describe('list and CSV', () => {
    it('answers superusers only: 401 anonymous, 403 a normal user', async () => {
      for (const url of ['/audit-events', '/audit-events/download-csv']) {
        expect((await api('POST', url, '', { filters: [] })).statusCode, url).toBe(401);
        expect((await api('POST', url, owner.token, { filters: [] })).statusCode, url).toBe(403);
        expect((await api('POST', url, admin, { filters: [] })).statusCode, url).toBe(200);
      }
    });

    it('filters, sorts and pages like the other lists, and refuses what its field table does not allow', async () => {
      const failed = await events([{ field: 'action', operator: 'contains', value: 'LOGIN_FAILED' }], '?limit=1&sort_by=target_label');
      expect(failed.count).toBeGreaterThanOrEqual(2);
      expect(failed.data).toHaveLength(1);
      expect(failed.data[0]?.target_label).toBe('audit-owner@example.com');
      const today = new Date().toISOString().slice(0, 10);
      const newest = await events([{ field: 'created_at', operator: 'equals', value: today }]);
      expect(newest.count).toBeGreaterThan(0);
      const times = newest.data.map((e) => String(e.created_at));
      expect(times).toEqual([...times].sort().reverse());

      const bad = await api('POST', '/audit-events?sort_by=details', admin, {
        filters: [{ field: 'details', operator: 'contains', value: 'x' }],
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'filters', 0, 'field']);
      const badSort = await api('POST', '/audit-events?sort_by=details', admin, { filters: [] });
      expect(badSort.json().detail[0].loc).toEqual(['query', 'sort_by']);
      const badDate = await api('POST', '/audit-events', admin, { filters: [{ field: 'created_at', operator: 'gt', value: 'soon' }] });
      expect(badDate.statusCode).toBe(422);
    });

    it('downloads the filtered events as CSV with every field, the details as JSON', async () => {
      const res = await api('POST', '/audit-events/download-csv', admin, {
        filters: [{ field: 'action', operator: 'equals', value: 'auth.login_failed' }],
        sort_by: 'id',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit_events_.*\.csv"$/);
      const lines = res.body.trim().split('\n');
      expect(lines[0]).toBe('Event ID,At,Action,Actor,Target Type,Target ID,Target,Client Address,Details,Actor ID');
      expect(lines.slice(1).every((l) => l.includes(',auth.login_failed,'))).toBe(true);
      expect(res.body).toContain('"{""email"": ""nobody@example.com"", ""reason"": ""unknown_email""}"');
    });
  });

  describe('search over many events', () => {
    /** The plan of one of the page's searches, with scans of the whole table ruled out as a big table would. */
    async function plan(query: string): Promise<string> {
      return t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(sql.raw(`EXPLAIN ${query}`));
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    }

    it("serves the page's filters and sorts from indexes (over 1M events each was a 1–5 s scan)", async () => {
      const newest = 'ORDER BY created_at DESC, id DESC LIMIT 50';
      const searches: [string, string][] = [
        [`SELECT * FROM audit_events WHERE client_address = '10.7.7.7' ${newest}`, 'audit_events_client_address_idx'],
        [`SELECT * FROM audit_events WHERE actor_email = 'a@example.com' ${newest}`, 'audit_events_actor_email_idx'],
        [`SELECT * FROM audit_events WHERE target_id = '42' ${newest}`, 'audit_events_target_id_idx'],
        [`SELECT * FROM audit_events WHERE target_label = 'x' ${newest}`, 'audit_events_target_label_idx'],
        [`SELECT * FROM audit_events WHERE target_label ILIKE '%owner%' ${newest}`, 'audit_events_target_label_trgm_idx'],
        [`SELECT * FROM audit_events WHERE actor_email ILIKE '%owner%' ${newest}`, 'audit_events_actor_email_trgm_idx'],
        [`SELECT * FROM audit_events WHERE client_address ILIKE '%113.7%' ${newest}`, 'audit_events_client_address_trgm_idx'],
        ['SELECT * FROM audit_events ORDER BY action ASC, id ASC LIMIT 50', 'audit_events_action_sort_idx'],
        [
          'SELECT * FROM audit_events WHERE target_type IS NOT NULL ORDER BY target_type DESC, id DESC LIMIT 50',
          'audit_events_target_type_sort_idx',
        ],
      ];
      for (const [query, index] of searches) expect(await plan(query), query).toContain(index);
    });

    it('pages a sort on a column with empty values as ORDER BY … NULLS LAST would, in both directions', async () => {
      // Events without a target (as a failed login's withheld username leaves) beside the labelled ones.
      await t.ctx.db.insert(auditEvents).values([{ action: 'auth.login_failed' }, { action: 'auth.login_failed' }]);
      for (const dir of ['asc', 'desc'] as const) {
        const d = sql.raw(dir.toUpperCase());
        const { rows } = await t.ctx.db.execute<{ id: number }>(
          sql`SELECT id FROM audit_events ORDER BY target_label ${d} NULLS LAST, id ${d}`,
        );
        const expected = rows.map((r) => Number(r.id));
        const valued = Number(
          (await t.ctx.db.execute<{ n: number }>(sql`SELECT count(target_label)::int AS n FROM audit_events`)).rows[0]?.n,
        );
        expect(valued).toBeLessThan(expected.length);
        const all = await events([], `?sort_by=target_label&sort_direction=${dir}&limit=1000`);
        expect(all.data.map((e) => e.id)).toEqual(expected);
        // A page across the last valued row and the first empty one continues the same order.
        const across = await events([], `?sort_by=target_label&sort_direction=${dir}&skip=${valued - 1}&limit=2`);
        expect(across.data.map((e) => e.id)).toEqual(expected.slice(valued - 1, valued + 1));
      }
    });
  });

  describe('retention', () => {
    it('prunes events older than the retention in batches, oldest first, and keeps all with 0', async () => {
      const before = await countRows(t.ctx.db, 'audit_events');
      const ages = [500, 450, 400, 10];
      for (const days of ages) {
        await t.ctx.db.insert(auditEvents).values({
          action: 'auth.login_failed',
          target_label: `old-${days}`,
          created_at: new Date(Date.now() - days * DAY),
        });
      }
      expect(await new AuditPruner(t.ctx.db, 0).tick()).toBeNull();
      const pruner = new AuditPruner(t.ctx.db, 365 * DAY, 2);
      expect(await pruner.tick()).toEqual({ deleted: 2 });
      const left = await events([{ field: 'target_label', operator: 'contains', value: 'old-' }], '?sort_by=target_label');
      expect(left.data.map((e) => e.target_label)).toEqual(['old-10', 'old-400']);
      expect(await pruner.tick()).toEqual({ deleted: 1 });
      expect(await pruner.tick()).toEqual({ deleted: 0 });
      expect(await countRows(t.ctx.db, 'audit_events')).toBe(before + 1);
      expect(await pruneAuditEvents(t.ctx.db, 5 * DAY)).toBe(1);
    });
  });
});
