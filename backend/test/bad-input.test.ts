// Every bad input is a clear 4xx naming what is wrong, on both databases: NUL characters, numbers
// an integer column cannot hold, dates PostgreSQL cannot store, broken multipart bodies, and the
// HTTP parser's own errors. None may answer 500 or quote the request back.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES } from './helpers/databases.ts';
import { multipartBody } from './helpers/multipart.ts';

const NUL = 'a\u0000b';
const filter = (field: string, operator: string, value: string) => ({ filters: [{ field, operator, value }] });

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  body?: unknown;
  form?: Record<string, string>;
  status: number;
  loc?: (string | number)[];
}

const CASES: Case[] = [
  {
    name: 'NUL in a text filter',
    method: 'POST',
    url: '/api/v1/abe-books/price-lookups',
    body: filter('isbn', 'contains', NUL),
    status: 422,
    loc: ['body', 'filters', 0, 'value'],
  },
  {
    name: 'NUL in a jobs filter',
    method: 'POST',
    url: '/api/v1/jobs/jobs',
    body: filter('name', 'equals', NUL),
    status: 422,
    loc: ['body', 'filters', 0, 'value'],
  },
  { name: 'NUL in an item title', method: 'POST', url: '/api/v1/items/', body: { title: NUL }, status: 422, loc: ['body', 'title'] },
  {
    name: 'NUL in a profile name',
    method: 'PATCH',
    url: '/api/v1/users/me',
    body: { full_name: NUL },
    status: 422,
    loc: ['body', 'full_name'],
  },
  {
    name: 'NUL in a login',
    method: 'POST',
    url: '/api/v1/login/access-token',
    form: { username: `x${NUL}@example.com`, password: 'whatever1' },
    status: 422,
    loc: ['body', 'username'],
  },
  {
    name: 'NUL in a sort field',
    method: 'POST',
    url: `/api/v1/biblio/price-lookups?sort_by=${encodeURIComponent(NUL)}`,
    body: { filters: [] },
    status: 422,
    loc: ['query', 'sort_by'],
  },
  {
    name: 'a fraction for a whole-number column',
    method: 'POST',
    url: '/api/v1/abe-books/price-lookups',
    body: filter('quantity', 'gt', '1.5'),
    status: 200,
  },
  {
    name: 'a number past the integer range',
    method: 'POST',
    url: '/api/v1/abe-books/price-lookups',
    body: filter('isbn_lookup_job_id', 'gt', '1e10'),
    status: 200,
  },
  {
    name: 'a number past the id range on jobs',
    method: 'POST',
    url: '/api/v1/jobs/jobs',
    body: filter('id', 'lte', '99999999999999999999'),
    status: 200,
  },
  { name: 'a job id past the integer range', method: 'GET', url: '/api/v1/jobs/2147483648', status: 422, loc: ['path', 'id'] },
  { name: 'a fractional job id', method: 'GET', url: '/api/v1/jobs/1.5', status: 422, loc: ['path', 'id'] },
  {
    name: 'a lookup id past the safe range',
    method: 'GET',
    url: '/api/v1/alibris/price-lookups/99999999999999999999/offers',
    status: 422,
    loc: ['path', 'id'],
  },
  {
    name: 'a skip past the safe range',
    method: 'POST',
    url: '/api/v1/alibris/price-lookups?skip=1e30',
    body: { filters: [] },
    status: 422,
    loc: ['query', 'skip'],
  },
  {
    name: 'a date before year 1',
    method: 'POST',
    url: '/api/v1/abe-books/price-lookups',
    body: filter('created_at', 'gt', '-010000-01-01'),
    status: 422,
    loc: ['body', 'filters', 0, 'value'],
  },
  {
    name: 'a date after year 9999',
    method: 'POST',
    url: '/api/v1/jobs/jobs',
    body: filter('created_at', 'lt', '+275000-01-01T00:00:00Z'),
    status: 422,
    loc: ['body', 'filters', 0, 'value'],
  },
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

  const upload = (payload: Buffer | string, contentType: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/jobs/upload-file', headers: { ...bearer(token), 'content-type': contentType }, payload });

  it('a NUL in the job name or the file name is a 422 naming it; in a cell it is kept readable', async () => {
    const config = (name: string) => JSON.stringify({ name, abe_books: true });
    let body = multipartBody({ config: config(NUL) }, { name: 'isbns.csv', data: 'isbn\n9780131457577\n' });
    let res = await upload(body.payload, body.headers['content-type']);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].loc).toEqual(['body', 'config', 'name']);

    body = multipartBody({ config: config('ok') }, { name: `is${NUL}bns.csv`, data: 'isbn\n9780131457577\n' });
    res = await upload(body.payload, body.headers['content-type']);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].loc).toEqual(['body', 'filename']);

    body = multipartBody({ config: config('ok') }, { name: 'isbns.csv', data: `isbn\n9780131457577\nab\u0000cd\n` });
    res = await upload(body.payload, body.headers['content-type']);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rejections[0].raw_value).toBe('ab\uFFFDcd');
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
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/items/',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"title": "secret-value',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ detail: 'The request body could not be read' });
    const oddType = await t.app.inject({
      method: 'POST',
      url: '/api/v1/items/',
      headers: { ...bearer(token), 'content-type': 'application/x-secret-type' },
      payload: 'x',
    });
    expect(oddType.statusCode).toBe(415);
    expect(oddType.body).not.toContain('secret');
    const tooBig = await t.app.inject({
      method: 'POST',
      url: '/api/v1/items/',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: `{"title":"${'x'.repeat(2 * 1024 * 1024)}"}`,
    });
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
    t = await startTestApp('pglite');
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
