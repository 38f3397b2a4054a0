// Jobs from a pasted or scanned list of ISBNs: the same clean-up, report and downloadable
// rejections as an uploaded file; bad input refused with 422 naming the field, big lists with 413.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISBN_REJECTION as R } from '@app/domain/isbn';
import { PASTE_MESSAGES } from '@app/domain/isbn-list';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES, countRows as countRowsIn } from './helpers/databases.ts';

// As a scanner and a clipboard give them: one code per line, tabs, commas, add-ons, a UPC, junk.
const PASTED = [
  '978-0-306-40615-7', // 1 hyphenated ISBN-13
  '0306406152', // 2 the same book as an ISBN-10: merged
  '9780131457577 51299', // 3 EAN with its 5-digit price add-on
  '978048622987451299', // 4 the same, run together (18 digits)
  '9781861972712-05', // 5 a 2-digit add-on after a hyphen
  '036000291452', // 6 a UPC: no certain ISBN
  '', // 7 blank
  'hello', // 8 junk
  '0843610727\t9780131457577, 080442957X', // 9 tab and comma separated; the middle one is a repeat
  '978030640615', // 10 a check digit missing
].join('\r\n');

const ACCEPTED = ['9780306406157', '9780131457577', '9780486229874', '9781861972712', '9780843610727', '9780804429573'];

describe.each(ENGINES)('jobs from pasted ISBNs on %s', (engine) => {
  let t: TestApp;
  let user: { id: string; token: string };
  let other: { id: string; token: string };

  const paste = (token: string | null, body: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v1/jobs/from-isbns', headers: token ? bearer(token) : {}, payload: body as object });
  const count = (table: string) => countRowsIn(t.ctx.db, table);

  beforeAll(async () => {
    t = await startTestApp(engine);
    user = await createUser(t, 'paste-user@example.com');
    other = await createUser(t, 'paste-other@example.com');
  });
  afterAll(() => t.close());

  it('creates a job from a mixed paste: accepted ISBNs queued, duplicates merged, each rejected code with its line and reason', async () => {
    const res = await paste(user.token, { name: 'Scanned shelf', abe_books: true, pallet_iq: true, isbns: PASTED });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json();
    expect(job).toMatchObject({
      name: 'Scanned shelf',
      input_filename: 'pasted list',
      owner_id: user.id,
      abe_books: { enabled: true, total_isbns: ACCEPTED.length, processed_isbns: 0 },
      biblio: { enabled: false, total_isbns: 0 },
      pallet_iq: { enabled: true, total_isbns: ACCEPTED.length },
      report: { rows_read: 9, isbns_accepted: ACCEPTED.length, duplicates_merged: 2, cells_rejected: 3, header_row: false },
      rejections_truncated: false,
    });
    expect(job.rejections).toEqual([
      { sheet: '', row_number: 6, raw_value: '036000291452', reason: R.upc },
      { sheet: '', row_number: 8, raw_value: 'hello', reason: R.notAnIsbn },
      { sheet: '', row_number: 10, raw_value: '978030640615', reason: R.truncated },
    ]);

    for (const table of ['abe_books_price_lookups', 'pallet_iq_price_lookups']) {
      const { rows } = await t.ctx.db.execute<{ isbn: string; input_filename: string; lookup_status: string }>(
        sql`SELECT isbn, input_filename, lookup_status FROM ${sql.identifier(table)} WHERE isbn_lookup_job_id = ${job.id} ORDER BY id`,
      );
      expect(rows).toEqual(ACCEPTED.map((isbn) => ({ isbn, input_filename: 'pasted list', lookup_status: 'queued' })));
    }

    // The rejected codes stay downloadable, like an upload's cells.
    const csv = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}/rejections`, headers: bearer(user.token) });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toEqual([
      'sheet,row_number,raw_value,reason',
      `,6,036000291452,"${R.upc}"`,
      `,8,hello,${R.notAnIsbn}`,
      `,10,978030640615,${R.truncated}`,
    ]);
    // And the job reads back with its report.
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${job.id}`, headers: bearer(user.token) });
    expect(read.json().report).toEqual(job.report);
  });

  it('refuses an empty list, a list without any ISBN, a bad name or no marketplace with 422 naming the field, and writes nothing', async () => {
    const jobsBefore = await count('jobs');
    const cases: [unknown, (string | number)[], string | null][] = [
      [{ name: 'x', abe_books: true, isbns: '' }, ['body', 'isbns'], PASTE_MESSAGES.empty],
      [{ name: 'x', abe_books: true, isbns: ' \n\t\r\n , ' }, ['body', 'isbns'], PASTE_MESSAGES.empty],
      [{ name: 'x', abe_books: true, isbns: 'hello\n036000291452' }, ['body', 'isbns'], PASTE_MESSAGES.noneRecognised],
      [{ name: 'x', abe_books: true }, ['body', 'isbns'], null],
      [{ name: 'x', abe_books: true, isbns: 9780306406157 }, ['body', 'isbns'], null],
      [{ name: '  ', abe_books: true, isbns: '9780306406157' }, ['body', 'name'], 'Job Name is required.'],
      [{ name: 'x', isbns: '9780306406157' }, ['body', 'sources'], 'Choose at least one marketplace'],
      [{ name: 'x', abe_books: false, biblio: false, isbns: '9780306406157' }, ['body', 'sources'], 'Choose at least one marketplace'],
      [{ name: 'x', abe_books: 'yes', isbns: '9780306406157' }, ['body', 'abe_books'], null],
      [{ name: 'x', abe_books: true, isbns: '9780306406157\u0000' }, ['body', 'isbns'], null],
    ];
    for (const [body, loc, msg] of cases) {
      const res = await paste(user.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail[0].loc, JSON.stringify(body)).toEqual(loc);
      if (msg) expect(res.json().detail[0].msg).toBe(msg);
    }
    expect(await count('jobs')).toBe(jobsBefore);
  });

  it('refuses lists over the limits with 413 and a sentence, writing nothing', async () => {
    const small = await startTestApp(engine, { env: { UPLOAD_MAX_ISBNS: '3', UPLOAD_MAX_ROWS: '4' } });
    try {
      const token = await login(small.app, ADMIN.email, ADMIN.password);
      const send = (isbns: string) =>
        small.app.inject({
          method: 'POST',
          url: '/api/v1/jobs/from-isbns',
          headers: bearer(token),
          payload: { name: 'big', abe_books: true, isbns },
        });
      const fourBooks = ACCEPTED.slice(0, 4).join('\n');
      const tooManyIsbns = await send(fourBooks.replace(/\n/g, ', '));
      expect(tooManyIsbns.statusCode).toBe(413);
      expect(tooManyIsbns.json().detail).toBe(
        'The list holds more than 3 different ISBNs, which is the limit. Split it into smaller lists.',
      );
      const tooManyLines = await send(`${fourBooks}\nhello`);
      expect(tooManyLines.statusCode).toBe(413);
      expect(tooManyLines.json().detail).toBe('The list has 5 lines; the limit is 4. Split it into smaller lists.');
      // The body itself is bounded by the ISBN limit (32 bytes a code, plus room for the rest).
      const tooBig = await send('9780306406157\n'.repeat(400));
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json().detail).toBe('The request body is too large');
      // Within the limits it works, repeats and all.
      const fits = await send(`${ACCEPTED.slice(0, 3).join('\n')}\n${ACCEPTED[0]}`);
      expect(fits.statusCode, fits.body).toBe(200);
      expect(fits.json().report).toMatchObject({ isbns_accepted: 3, duplicates_merged: 1, rows_read: 4 });
      const { rows } = await small.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM jobs`);
      expect(rows[0]?.n).toBe(1);
    } finally {
      await small.close();
    }
  });

  it('needs a signed-in user; any user may create one, and sees only their own', async () => {
    const body = { name: 'Access', biblio: true, isbns: '9780306406157' };
    expect((await paste(null, body)).statusCode).toBe(401);
    const mine = await paste(user.token, body);
    expect(mine.statusCode).toBe(200);
    const admin = await paste(await login(t.app, ADMIN.email, ADMIN.password), body);
    expect(admin.statusCode).toBe(200);
    const id = mine.json().id;
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: bearer(other.token) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/rejections`, headers: bearer(other.token) })).statusCode).toBe(
      404,
    );
  });
});
