// Every bad input is a clear 4xx naming what is wrong, on both databases: NUL characters, lone UTF-16
// surrogates, numbers an integer column cannot hold, dates PostgreSQL cannot store, broken multipart bodies, and the
// HTTP parser's own errors. None may answer 500 or quote the request back.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { multipartBody, postJobUpload } from './helpers/multipart.ts';
import { oneColumnWorkbook } from './helpers/zip-writer.ts';

const NUL = 'a\u0000b';
/** A high surrogate with no low one after it: ill-formed UTF-16. */
const LONE = 'a\ud800b';
const filter = (field: string, operator: string, value: string) => ({ filters: [{ field, operator, value }] });
const ABE_BOOKS_LOOKUPS = '/api/v1/abe-books/price-lookups';
const JOBS_LIST = '/api/v1/jobs/jobs';
const NO_FILTERS = { filters: [] };
const PASTE = '/api/v1/jobs/from-isbns';

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  body?: unknown;
  form?: Record<string, string>;
  status: number;
  loc?: (string | number)[];
}

/** Where a refused filter value is named. */
const FILTER_VALUE = ['body', 'filters', 0, 'value'];

/** A POST to a list page (lookups or jobs) with `body`, answered `status`, naming `loc` when refused. */
const listPage = (name: string, url: string, body: object, status: number, loc?: Case['loc']): Case => ({
  name,
  method: 'POST',
  url,
  body,
  status,
  loc,
});

/** A GET whose id in the path is refused. */
const refusedPathId = (name: string, url: string): Case => ({ name, method: 'GET', url, status: 422, loc: ['path', 'id'] });

/** A JSON body holding text PostgreSQL cannot store, refused with 422 naming the field at `loc`. */
const refusedText = (name: string, method: Case['method'], url: string, body: object, loc: Case['loc']): Case => ({
  name,
  method,
  url,
  body,
  status: 422,
  loc,
});

const CASES: Case[] = [
  listPage('NUL in a text filter', ABE_BOOKS_LOOKUPS, filter('isbn', 'contains', NUL), 422, FILTER_VALUE),
  listPage('NUL in a jobs filter', JOBS_LIST, filter('name', 'equals', NUL), 422, FILTER_VALUE),
  refusedText('NUL in an item title', 'POST', '/api/v1/items/', { title: NUL }, ['body', 'title']),
  refusedText('NUL in a profile name', 'PATCH', '/api/v1/users/me', { full_name: NUL }, ['body', 'full_name']),
  {
    name: 'NUL in a login',
    method: 'POST',
    url: '/api/v1/login/access-token',
    form: { username: `x${NUL}@example.com`, password: 'whatever1' },
    status: 422,
    loc: ['body', 'username'],
  },
  listPage('NUL in a sort field', `/api/v1/biblio/price-lookups?sort_by=${encodeURIComponent(NUL)}`, NO_FILTERS, 422, ['query', 'sort_by']),
  // A lone UTF-16 surrogate (issue 29): JSON carries it, jsonb refuses it and text would change it.
  listPage('a lone surrogate in a jobs filter', JOBS_LIST, filter('name', 'equals', LONE), 422, FILTER_VALUE),
  refusedText('a lone surrogate in an item title', 'POST', '/api/v1/items/', { title: LONE }, ['body', 'title']),
  refusedText('a lone surrogate in a profile name', 'PATCH', '/api/v1/users/me', { full_name: LONE }, ['body', 'full_name']),
  refusedText('a lone surrogate in a rule set name', 'POST', '/api/v1/rule-sets', { name: LONE, rules: [] }, ['body', 'name']),
  refusedText('a lone surrogate in a pasted job name', 'POST', PASTE, { name: LONE, abe_books: true, isbns: '9780306406157' }, [
    'body',
    'name',
  ]),
  refusedText('a lone surrogate in pasted ISBNs', 'POST', PASTE, { name: 'x', abe_books: true, isbns: `9780306406157\n${LONE}` }, [
    'body',
    'isbns',
  ]),
  refusedText('a lone surrogate in a key', 'POST', '/api/v1/items/', { title: 'x', [LONE]: 1 }, ['body', LONE]),
  // A number its column cannot hold matches nothing: not an error.
  listPage('a fraction for a whole-number column', ABE_BOOKS_LOOKUPS, filter('quantity', 'gt', '1.5'), 200),
  listPage('a number past the integer range', ABE_BOOKS_LOOKUPS, filter('isbn_lookup_job_id', 'gt', '1e10'), 200),
  listPage('a number past the id range on jobs', JOBS_LIST, filter('id', 'lte', '99999999999999999999'), 200),
  refusedPathId('a job id past the integer range', '/api/v1/jobs/2147483648'),
  refusedPathId('a fractional job id', '/api/v1/jobs/1.5'),
  refusedPathId('a lookup id past the safe range', '/api/v1/alibris/price-lookups/99999999999999999999/offers'),
  listPage('a skip past the safe range', '/api/v1/alibris/price-lookups?skip=1e30', NO_FILTERS, 422, ['query', 'skip']),
  listPage('a date before year 1', ABE_BOOKS_LOOKUPS, filter('created_at', 'gt', '-010000-01-01'), 422, FILTER_VALUE),
  listPage('a date after year 9999', JOBS_LIST, filter('created_at', 'lt', '+275000-01-01T00:00:00Z'), 422, FILTER_VALUE),
];

describe.each(ENGINES)('bad input on %s', (engine) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp(engine);
    token = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  it.each(CASES)('$name → $status', async (c) => {
    const res = await t.app.inject({
      method: c.method,
      url: c.url,
      headers: { ...bearer(token), ...(c.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(c.form ? { payload: new URLSearchParams(c.form).toString() } : c.body ? { payload: c.body as object } : {}),
    });
    expect(res.statusCode, res.body).toBe(c.status);
    if (c.loc) expect(res.json().detail[0].loc).toEqual(c.loc);
  });

  /** A POST of a raw body, labelled `contentType`: how a client that gets the body wrong sends it. */
  const postRaw = (url: string, contentType: string, payload: Buffer | string) =>
    t.app.inject({ method: 'POST', url, headers: { ...bearer(token), 'content-type': contentType }, payload });
  const upload = (payload: Buffer | string, contentType: string) => postRaw('/api/v1/jobs/upload-file', contentType, payload);

  /** Uploads one CSV file as a new AbeBooks job named `jobName`. */
  const uploadCsv = (jobName: string, fileName: string, data: string) => {
    const body = multipartBody({ config: JSON.stringify({ name: jobName, abe_books: true }) }, { name: fileName, data });
    return upload(body.payload, body.headers['content-type']);
  };

  it('a NUL in the job name or the file name is a 422 naming it; in a cell it is kept readable', async () => {
    for (const [jobName, fileName, loc] of [
      [NUL, 'isbns.csv', ['body', 'config', 'name']],
      ['ok', `is${NUL}bns.csv`, ['body', 'filename']],
    ] as const) {
      const res = await uploadCsv(jobName, fileName, 'isbn\n9780131457577\n');
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(loc);
    }

    const res = await uploadCsv('ok', 'isbns.csv', `isbn\n9780131457577\nab\u0000cd\n`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rejections[0].raw_value).toBe('ab\uFFFDcd');
  });

  it('a lone surrogate in the job name is a 422 naming it; in a workbook cell it is kept readable', async () => {
    const res = await uploadCsv(LONE, 'isbns.csv', 'isbn\n9780131457577\n');
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'config', 'name'], type: 'string_unicode' });

    // An .xlsx writes a character XML cannot carry as _xHHHH_, a lone surrogate too.
    const workbook = oneColumnWorkbook(['ISBN', '9780131457577', 'ab_xD800_cd']);
    const cell = await postJobUpload(t.app, token, { name: 'ok', abe_books: true }, { name: 'isbns.xlsx', data: workbook });
    expect(cell.statusCode, cell.body).toBe(200);
    expect(cell.json().rejections[0].raw_value).toBe('ab\uFFFDcd');
  });

  it('multipart bodies without a boundary or with a broken one are 400 {detail}', async () => {
    for (const [payload, type] of [
      ['--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc', 'multipart/form-data'],
      ['--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc', 'multipart/form-data; boundary=x'],
    ] as const) {
      const res = await upload(payload, type);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ detail: 'The upload could not be read. Please try again.' });
    }
  });

  it("Fastify's own errors answer {detail} without quoting the request", async () => {
    const postItem = (contentType: string, payload: string) => postRaw('/api/v1/items/', contentType, payload);
    const badJson = await postItem('application/json', '{"title": "secret-value');
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ detail: 'The request body could not be read' });
    const oddType = await postItem('application/x-secret-type', 'x');
    expect(oddType.statusCode).toBe(415);
    expect(oddType.body).not.toContain('secret');
    const tooBig = await postItem('application/json', `{"title":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ detail: 'The request body is too large' });
  });

  it('security headers and a CSP come with every answer', async () => {
    for (const url of ['/api/v1/utils/health-check/', '/api/v1/nothing-here']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });
});

describe('the HTTP parser’s own errors', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp('pg');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
      let out = '';
      socket.on('data', (d) => (out += d));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });

  it('headers too large answer 431 {detail}; a garbled request line 400 {detail}', async () => {
    const huge = await raw(`GET /api/v1/utils/health-check/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'s'.repeat(40_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1.1 431/);
    expect(huge).toContain('{"detail":"The request headers are too large"}');
    expect(huge).not.toContain('sss');
    const garbled = await raw('NOT A REQUEST\r\n\r\n');
    expect(garbled).toMatch(/^HTTP\/1.1 400/);
    expect(garbled).toContain('{"detail":"The request body could not be read"}');
  });
});
