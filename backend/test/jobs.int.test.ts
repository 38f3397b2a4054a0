// Jobs through the HTTP API: upload, report, rejected cells, listing with filters and sort, progress.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES, countRows as countRowsIn, onOneEngine } from './helpers/databases.ts';
import { readFileSync } from 'node:fs';
import { ALL_SOURCES, multipartBody, postJobUpload } from './helpers/multipart.ts';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { LookupQueue } from '../src/worker/queue.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/uploads/${name}`, import.meta.url));

const CSV = [
  'ISBN,Title',
  '978-0-13-145757-7,Marketing',
  '0131457578,same book as ISBN-10',
  '9780486229874,Art Forms',
  'not an isbn,junk',
  '',
  '9781861972712,ok',
].join('\n');

describe.each(ENGINES)('jobs on %s', (engine) => {
  let t: TestApp;
  let user: { id: string; token: string };
  let other: { id: string; token: string };

  const upload = (token: string, config: unknown, file = { name: 'books.csv', data: CSV }) => postJobUpload(t.app, token, config, file);
  /** The jobs list (POST, filters in the body); `query` carries paging and sorting. */
  const searchJobs = (token: string, filters: unknown[], query = '') =>
    t.app.inject({ method: 'POST', url: `/api/v1/jobs/jobs${query}`, headers: bearer(token), payload: { filters } });
  const countRows = (table: string) => countRowsIn(t.ctx.db, table);

  beforeAll(async () => {
    t = await startTestApp(engine);
    user = await createUser(t, 'jobs-user@example.com');
    other = await createUser(t, 'jobs-other@example.com');
  });
  afterAll(() => t.close());

  it('creates a job with one queued lookup per accepted ISBN per enabled source and reports what it did', async () => {
    const res = await upload(user.token, { name: 'First job', abe_books: true, biblio: false, alibris: true, pallet_iq: false });
    expect(res.statusCode).toBe(200);
    const job = res.json();
    expect(job).toMatchObject({
      name: 'First job',
      input_filename: 'books.csv',
      abe_books: { enabled: true, total_isbns: 3, processed_isbns: 0 },
      biblio: { enabled: false, total_isbns: 0, processed_isbns: 0 },
      alibris: { enabled: true, total_isbns: 3, processed_isbns: 0 },
      pallet_iq: { enabled: false, total_isbns: 0, processed_isbns: 0 },
      report: { rows_read: 5, isbns_accepted: 3, duplicates_merged: 1, cells_rejected: 1, header_row: true },
    });
    expect(job.rejections).toEqual([expect.objectContaining({ row_number: 5, raw_value: 'not an isbn' })]);
    const { rows } = await t.ctx.db.execute<{ isbn: string; lookup_status: string }>(
      sql`SELECT isbn, lookup_status FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ${job.id} ORDER BY id`,
    );
    expect(rows).toEqual([
      { isbn: '9780131457577', lookup_status: 'queued' },
      { isbn: '9780486229874', lookup_status: 'queued' },
      { isbn: '9781861972712', lookup_status: 'queued' },
    ]);

    const csv = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/rejections`, headers: bearer(user.token) });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain(`job_${job.id}_rejected_cells.csv`);
    expect(csv.body.trim().split('\n')).toEqual(['sheet,row_number,raw_value,reason', expect.stringContaining(',5,not an isbn,')]);
  });

  it('creates a single-source job from a marketplace page upload', async () => {
    const body = multipartBody({}, { name: 'palletiq.csv', data: CSV });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pallet-iq/upload-file',
      headers: { ...bearer(user.token), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      pallet_iq: { enabled: true, total_isbns: 3 },
      abe_books: { enabled: false },
      input_filename: 'palletiq.csv',
    });
    expect(Date.parse(res.json().name)).not.toBeNaN();
  });

  // Refused while the upload is read and parsed, before anything is written (jobs/routes.ts parses
  // the whole file, then creates the job): the HTTP and parsing layer alone, on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    it('refuses bad configs and files with a clear 4xx and writes nothing', async () => {
      const jobsBefore = await countRows('jobs');
      const lookupsBefore = await countRows('abe_books_price_lookups');
      const cases: [unknown, { name: string; data: string | Buffer } | undefined, number, unknown][] = [
        [{ name: 'x', abe_books: false }, undefined, 422, ['body', 'file']],
        ['{not json', { name: 'a.csv', data: CSV }, 422, ['body', 'config']],
        [{ name: '', abe_books: true }, { name: 'a.csv', data: CSV }, 422, ['body', 'config', 'name']],
        [{ name: 'x' }, { name: 'a.csv', data: CSV }, 422, ['body', 'config', 'sources']],
        [{ name: 'x', abe_books: true }, { name: 'a.pdf', data: CSV }, 422, null],
        [{ name: 'x', abe_books: true }, { name: 'a.xlsx', data: CSV }, 422, null],
        [{ name: 'x', abe_books: true }, { name: 'a.csv', data: 'title\nno isbn here\n' }, 422, null],
      ];
      for (const [config, file, status, loc] of cases) {
        const res = file
          ? await upload(user.token, config, file as never)
          : await (async () => {
              const body = multipartBody({ config: JSON.stringify(config) });
              return t.app.inject({
                method: 'POST',
                url: '/api/v1/jobs/upload-file',
                headers: { ...bearer(user.token), ...body.headers },
                payload: body.payload,
              });
            })();
        expect(res.statusCode, JSON.stringify(config)).toBe(status);
        if (loc) expect(res.json().detail[0].loc).toEqual(loc);
        else expect(typeof res.json().detail).toBe('string');
      }
      expect(await countRows('jobs')).toBe(jobsBefore);
      expect(await countRows('abe_books_price_lookups')).toBe(lookupsBefore);
    }),
  );

  // Refused before anything is written, like the above: on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    it('refuses an upload over the size limit with 413', async () => {
      const small = await startTestApp(engine, { env: { UPLOAD_MAX_BYTES: '1000' } });
      try {
        const token = await login(small.app, ADMIN.email, ADMIN.password);
        const body = multipartBody(
          { config: JSON.stringify({ name: 'big', abe_books: true }) },
          { name: 'big.csv', data: `isbn\n${'9780131457577\n'.repeat(200)}` },
        );
        const res = await small.app.inject({
          method: 'POST',
          url: '/api/v1/jobs/upload-file',
          headers: { ...bearer(token), ...body.headers },
          payload: body.payload,
        });
        expect(res.statusCode).toBe(413);
        expect(res.json().detail).toMatch(/upload limit/);
        expect((await small.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM jobs`)).rows[0]!.n).toBe(0);
      } finally {
        await small.close();
      }
    }),
  );

  it('reads real .xlsx and .xls workbooks with all four sources', async () => {
    for (const name of ['mixed.xlsx', 'mixed.xls']) {
      const res = await upload(user.token, { name, ...ALL_SOURCES }, { name, data: fixture(name) as never });
      expect(res.statusCode, name).toBe(200);
      expect(res.json().report).toMatchObject({ rows_read: 16, isbns_accepted: 10, duplicates_merged: 2, cells_rejected: 4 });
      for (const source of ['abe_books', 'biblio', 'alibris', 'pallet_iq'])
        expect(res.json()[source]).toEqual({ enabled: true, total_isbns: 10, processed_isbns: 0 });
    }
  });

  // Refused before anything is written, like the above: on ONE_ENGINE's pass only.
  onOneEngine(engine, () =>
    it('refuses corrupt, renamed, bomb-like and over-long workbooks without writing anything', async () => {
      const tight = await startTestApp(engine, { env: { UPLOAD_MAX_UNCOMPRESSED_BYTES: '20000', UPLOAD_MAX_ROWS: '5' } });
      try {
        const token = await login(tight.app, ADMIN.email, ADMIN.password);
        const xlsx = fixture('mixed.xlsx');
        const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100)]);
        const cases: [string, Buffer, number][] = [
          ['corrupt.xlsx', xlsx.subarray(0, Math.floor(xlsx.length / 2)), 422],
          ['picture.xlsx', png, 422],
          ['bomb.xlsx', xlsx, 413],
          ['long.csv', Buffer.from(`isbn\n${'9780131457577\n'.repeat(10)}`), 413],
        ];
        for (const [name, data, status] of cases) {
          const body = multipartBody({ config: JSON.stringify({ name, abe_books: true }) }, { name, data });
          const res = await tight.app.inject({
            method: 'POST',
            url: '/api/v1/jobs/upload-file',
            headers: { ...bearer(token), ...body.headers },
            payload: body.payload,
          });
          expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
          expect(typeof res.json().detail, name).toBe('string');
          expect(res.body).not.toMatch(/\bat \S+:\d+/);
        }
        const { rows } = await tight.ctx.db.execute<{ jobs: number; lookups: number; rejections: number }>(
          sql`SELECT (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM abe_books_price_lookups)::int AS lookups, (SELECT count(*) FROM job_rejections)::int AS rejections`,
        );
        expect(rows[0]).toEqual({ jobs: 0, lookups: 0, rejections: 0 });
      } finally {
        await tight.close();
      }
      // It starts an app of its own (a fresh embedded database and its migrations) inside the test.
    }, 90_000),
  );

  it('lists own jobs newest first with progress; superusers see all; filters and sorts are checked', async () => {
    await upload(other.token, { name: 'Other job', biblio: true });
    const mine = await searchJobs(user.token, [], '?skip=0&limit=10');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.every((j: { owner_id: string }) => j.owner_id === user.id)).toBe(true);
    const created = mine.json().data.map((j: { created_at: string }) => j.created_at);
    expect([...created].sort().reverse()).toEqual(created);

    const all = await searchJobs(await login(t.app, ADMIN.email, ADMIN.password), []);
    expect(all.json().count).toBe(mine.json().count + 1);

    const byName = await searchJobs(user.token, [{ field: 'name', operator: 'contains', value: 'FIRST' }]);
    expect(byName.json().data.map((j: { name: string }) => j.name)).toEqual(['First job']);
    const byId = await searchJobs(user.token, [{ field: 'id', operator: 'gte', value: '1' }], '?sort_by=id&sort_direction=asc');
    const ids = byId.json().data.map((j: { id: number }) => j.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    const today = new Date().toISOString().slice(0, 10);
    const byDay = await searchJobs(user.token, [{ field: 'created_at', operator: 'equals', value: today }]);
    expect(byDay.json().count, byDay.body).toBe(mine.json().count);

    const badField = await searchJobs(user.token, [{ field: 'owner_id', operator: 'equals', value: 'x' }]);
    expect(badField.statusCode).toBe(422);
    expect(badField.json().detail[0]).toMatchObject({ loc: ['body', 'filters', 0, 'field'], msg: "Unknown filter field 'owner_id'" });
    const badOp = await searchJobs(user.token, [{ field: 'name', operator: 'gt', value: 'x' }]);
    expect(badOp.json().detail[0].loc).toEqual(['body', 'filters', 0, 'operator']);
    const badNumber = await searchJobs(user.token, [{ field: 'id', operator: 'gt', value: 'abc' }]);
    expect(badNumber.json().detail[0].loc).toEqual(['body', 'filters', 0, 'value']);
    const badSort = await searchJobs(user.token, [], '?sort_by=secret');
    expect(badSort.json().detail[0]).toMatchObject({ loc: ['query', 'sort_by'] });
  });

  it('shows progress as the queue finishes lookups (counters, not a recount)', async () => {
    const res = await upload(user.token, { name: 'Progress', abe_books: true });
    const id = res.json().id;
    const queue = new LookupQueue(t.ctx.db, MARKETPLACES.abe_books);
    const claimed = await queue.claim(50, 60_000);
    const mine = (
      await t.ctx.db.execute<{ id: number }>(sql`SELECT id FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ${id} ORDER BY id`)
    ).rows.map((r) => r.id);
    const first = claimed.find((r) => r.id === mine[0])!;
    await queue.finish([{ id: first.id, attempts: first.attempts, status: 'completed', last_error: null, offers: [], record: null }]);
    // Finishing the same row again (a late duplicate write) does not count twice.
    await queue.finish([{ id: first.id, attempts: first.attempts, status: 'completed', last_error: null, offers: [], record: null }]);
    const job = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: bearer(user.token) });
    expect(job.json().abe_books).toEqual({ enabled: true, total_isbns: 3, processed_isbns: 1 });
    const hidden = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: bearer(other.token) });
    expect(hidden.statusCode).toBe(404);
  });
});
