// The access rule of every route: anonymous, a user on their own things, another user, a superuser.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';
import { multipartBody } from './helpers/multipart.ts';
import { insertRuleSet, rule as ruleOf } from './helpers/rule-sets.ts';

const BUY_RULE = ruleOf('Buy', 'green', [['best_price', 'lt', '10']]);

type Who = 'anonymous' | 'owner' | 'other' | 'superuser';
interface Rule {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: () => string;
  body?: () => object;
  multipart?: boolean;
  expect: Record<Who, number>;
}

// Access is decided before any engine-specific code runs: one engine (ONE_ENGINE says which and why).
describe.each(ONE_ENGINE)('access rules on %s', (engine) => {
  let t: TestApp;
  const tokens: Record<Who, string> = { anonymous: '', owner: '', other: '', superuser: '' };
  let ownerId = '';
  let itemId = '';
  let jobId = 0;
  let teamDefaultId = 0;
  const lookupIds: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(engine);
    const owner = await createUser(t, 'owner@example.com');
    const other = await createUser(t, 'other@example.com');
    ownerId = owner.id;
    tokens.owner = owner.token;
    tokens.other = other.token;
    tokens.superuser = await login(t.app, ADMIN.email, ADMIN.password);
    itemId = (
      await t.app.inject({ method: 'POST', url: '/api/v1/items/', headers: bearer(owner.token), payload: { title: 'owned' } })
    ).json().id;
    jobId = (
      await t.ctx.db.execute<{ id: number }>(
        sql`INSERT INTO jobs (name, input_filename, owner_id) VALUES ('j', 'f.csv', ${owner.id}) RETURNING id`,
      )
    ).rows[0]!.id;
    teamDefaultId = (await insertRuleSet(t.ctx.db, owner.id, 'owned default', [BUY_RULE], { teamDefault: true })).id;
    for (const m of MARKETPLACE_LIST) {
      lookupIds[m.slug] = (
        await t.ctx.db.execute<{ id: number }>(
          sql`INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn) VALUES (${jobId}, '9780131457577') RETURNING id`,
        )
      ).rows[0]!.id;
    }
  });
  afterAll(() => t.close());

  const anyone = { anonymous: 401, owner: 200, other: 200, superuser: 200 };
  const suOnly = { anonymous: 401, owner: 403, other: 403, superuser: 200 };
  const ownerOrSu = { anonymous: 401, owner: 200, other: 404, superuser: 200 };
  const upload = { anonymous: 401, owner: 200, other: 200, superuser: 200 };
  /** The team default decides every member's jobs: only superusers change it, its owner included (issue 29). */
  const teamDefault = { anonymous: 401, owner: 403, other: 404, superuser: 200 };
  const unknownMarket = { anonymous: 401, owner: 422, other: 422, superuser: 422 };

  const rules: [string, Rule][] = [
    ['test token', { method: 'POST', url: () => '/api/v1/login/test-token', expect: anyone }],
    ['recovery email html', { method: 'POST', url: () => '/api/v1/password-recovery-html-content/owner@example.com', expect: suOnly }],
    ['list users', { method: 'GET', url: () => '/api/v1/users/', expect: suOnly }],
    [
      'create user',
      {
        method: 'POST',
        url: () => '/api/v1/users/',
        body: () => ({ email: `u${Math.random()}@example.com`, password: 'password123' }),
        expect: suOnly,
      },
    ],
    ['read me', { method: 'GET', url: () => '/api/v1/users/me', expect: anyone }],
    ['update me', { method: 'PATCH', url: () => '/api/v1/users/me', body: () => ({}), expect: anyone }],
    [
      'read a user',
      { method: 'GET', url: () => `/api/v1/users/${ownerId}`, expect: { anonymous: 401, owner: 200, other: 403, superuser: 200 } },
    ],
    ['update a user', { method: 'PATCH', url: () => `/api/v1/users/${ownerId}`, body: () => ({ full_name: 'Owner' }), expect: suOnly }],
    ['list items', { method: 'GET', url: () => '/api/v1/items/', expect: anyone }],
    ['read an item', { method: 'GET', url: () => `/api/v1/items/${itemId}`, expect: ownerOrSu }],
    ['update an item', { method: 'PUT', url: () => `/api/v1/items/${itemId}`, body: () => ({ title: 'changed' }), expect: ownerOrSu }],
    ['list jobs', { method: 'POST', url: () => '/api/v1/jobs/jobs', body: () => ({ filters: [] }), expect: anyone }],
    ['read a job', { method: 'GET', url: () => `/api/v1/jobs/${jobId}`, expect: ownerOrSu }],
    ['job rejections', { method: 'GET', url: () => `/api/v1/jobs/${jobId}/rejections`, expect: ownerOrSu }],
    ['upload a job', { method: 'POST', url: () => '/api/v1/jobs/upload-file', multipart: true, expect: upload }],
    ['job cost', { method: 'PUT', url: () => `/api/v1/jobs/${jobId}/cost`, body: () => ({ cost_per_book: 1 }), expect: ownerOrSu }],
    ['fee schedules', { method: 'GET', url: () => '/api/v1/fee-schedules', expect: anyone }],
    [
      'set a fee schedule',
      {
        method: 'PUT',
        url: () => '/api/v1/fee-schedules/biblio',
        body: () => ({ percent: 12, fixed: 0, shipping_credit: 0 }),
        expect: suOnly,
      },
    ],
    ['reset a fee schedule', { method: 'DELETE', url: () => '/api/v1/fee-schedules/biblio', expect: suOnly }],
    [
      'edit the team default rule set',
      {
        method: 'PUT',
        url: () => `/api/v1/rule-sets/${teamDefaultId}`,
        body: () => ({ name: 'x', rules: [BUY_RULE] }),
        expect: teamDefault,
      },
    ],
    // The superuser tries last: their delete leaves no team default.
    ['delete the team default rule set', { method: 'DELETE', url: () => `/api/v1/rule-sets/${teamDefaultId}`, expect: teamDefault }],
    ...MARKETPLACE_LIST.flatMap((m): [string, Rule][] => [
      [
        `${m.slug} lookups`,
        { method: 'POST', url: () => `/api/v1/${m.slug}/price-lookups`, body: () => ({ filters: [] }), expect: anyone },
      ],
      [
        `${m.slug} csv`,
        { method: 'POST', url: () => `/api/v1/${m.slug}/price-lookups/download-csv`, body: () => ({ filters: [] }), expect: anyone },
      ],
      [`${m.slug} offers`, { method: 'GET', url: () => `/api/v1/${m.slug}/price-lookups/${lookupIds[m.slug]}/offers`, expect: ownerOrSu }],
      [`${m.slug} upload`, { method: 'POST', url: () => `/api/v1/${m.slug}/upload-file`, multipart: true, expect: upload }],
    ]),
    // {market} outside the registry: refused before anything runs, like any invalid parameter.
    [
      'unknown marketplace lookups',
      { method: 'POST', url: () => '/api/v1/nowhere/price-lookups', body: () => ({ filters: [] }), expect: unknownMarket },
    ],
    ['unknown marketplace upload', { method: 'POST', url: () => '/api/v1/nowhere/upload-file', multipart: true, expect: unknownMarket }],
  ];

  it.each(rules)('%s', async (_name, rule) => {
    for (const who of ['anonymous', 'owner', 'other', 'superuser'] as Who[]) {
      const headers: Record<string, string> = tokens[who] ? bearer(tokens[who]) : {};
      let payload: object | undefined = rule.body?.();
      if (rule.multipart) {
        const form = multipartBody(
          { config: JSON.stringify({ name: 'n', abe_books: true }) },
          { name: 'a.csv', data: 'isbn\n9780131457577\n' },
        );
        Object.assign(headers, form.headers);
        payload = form.payload;
      }
      const res = await t.app.inject({ method: rule.method, url: rule.url(), headers, payload });
      expect(res.statusCode, `${who}: ${res.body.slice(0, 200)}`).toBe(rule.expect[who]);
    }
  });

  it('deleting: users only by superusers, items by owner or superuser', async () => {
    const victim = await createUser(t, 'victim@example.com');
    for (const [who, status] of [
      ['anonymous', 401],
      ['owner', 403],
      ['other', 403],
    ] as [Who, number][]) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/${victim.id}`,
        headers: tokens[who] ? bearer(tokens[who]) : {},
      });
      expect(res.statusCode, who).toBe(status);
    }
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${victim.id}`, headers: bearer(tokens.superuser) })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/items/${itemId}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/items/${itemId}`, headers: bearer(tokens.other) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/items/${itemId}`, headers: bearer(tokens.owner) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/v1/users/me' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/password', payload: {} })).statusCode).toBe(401);
  });

  it('public routes answer without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/utils/health-check/' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/anyone@example.com' })).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/users/signup',
          payload: { email: 'public@example.com', password: 'password123' },
        })
      ).statusCode,
    ).toBe(200);
  });
});
