// One user's list of junk must not fill the disk or the response (issue 20): rejected cells are
// stored and echoed up to UPLOAD_MAX_REJECTIONS_KEPT, each value cut to a readable length, and the
// rest only counted, for uploads and pastes alike.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REJECTED_VALUE_MAX_CHARS } from '@app/domain/bounded-rejections';
import { ADMIN, bearer, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { postJobUpload } from './helpers/multipart.ts';

const KEPT = 25;

describe.each(ENGINES)('rejections kept per job on %s', (engine) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp(engine, { env: { UPLOAD_MAX_REJECTIONS_KEPT: String(KEPT) } });
    token = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  const storedRejections = async (jobId: number) => {
    const { rows } = await t.ctx.db.execute<{ n: number; longest: number }>(
      sql`SELECT count(*)::int AS n, coalesce(max(length(raw_value)), 0)::int AS longest FROM job_rejections WHERE job_id = ${jobId}`,
    );
    return rows[0];
  };

  it('a paste of mostly junk keeps the first rejections and counts the rest', async () => {
    const junk = Array.from({ length: 400 }, (_, i) => `junk-${i}`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/from-isbns',
      headers: bearer(token),
      payload: { name: 'junk paste', abe_books: true, isbns: ['9780306406157', ...junk].join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json();
    expect(job.report).toMatchObject({ isbns_accepted: 1, cells_rejected: 400, rejections_not_kept: 400 - KEPT });
    expect(job.rejections[0].raw_value).toBe('junk-0');
    expect(await storedRejections(job.id)).toEqual({ n: KEPT, longest: 'junk-24'.length });
    // The download lists what was kept.
    const csv = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/rejections`, headers: bearer(token) });
    expect(csv.body.trim().split('\n')).toHaveLength(KEPT + 1);
  });

  it('an upload with huge digit-only cells answers with their starts, never the cells whole', async () => {
    const huge = '7'.repeat(200_000);
    const rows = ['ISBN', '9780306406157', ...Array.from({ length: 40 }, () => huge)];
    const res = await postJobUpload(t.app, token, { name: 'huge cells', abe_books: true }, { name: 'huge.csv', data: rows.join('\n') });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const job = res.json();
    expect(job.report).toMatchObject({ isbns_accepted: 1, cells_rejected: 40, rejections_not_kept: 40 - KEPT });
    expect(job.rejections).toHaveLength(KEPT);
    expect(job.rejections[0].raw_value).toBe(`${'7'.repeat(REJECTED_VALUE_MAX_CHARS)}… (200,000 characters)`);
    // 8 MB of cells in; a few kilobytes out and stored.
    expect(res.body.length).toBeLessThan(20_000);
    expect((await storedRejections(job.id))?.longest).toBeLessThan(200);
  });
});
