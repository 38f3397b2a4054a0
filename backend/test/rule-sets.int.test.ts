// Buy rule sets through the API: versions, delete keeping versions for jobs, the team default, access
// and every refusal naming its field.
import { RULE_SET_CONDITIONS_MAX, RULES_MAX } from '@app/domain/rules';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentVersion, readRuleSetVersion, teamDefaultVersion } from '../src/rules/repository.ts';
import { ADMIN, bearer, createUser, login, testAppPerSuite } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';

const BUY = {
  outcome: 'Buy',
  color: 'green',
  conditions: [
    { field: 'best_price', operator: 'lte', value: '20' },
    { field: 'spread', operator: 'gte', value: '5' },
  ],
};
const REJECT = { outcome: 'Reject', color: 'red', conditions: [{ field: 'best_price', operator: 'gt', value: '20' }] };
const body = (name = 'Scouting', rules: unknown[] = [BUY, REJECT]) => ({ name, rules });

// Engine-neutral (ONE_ENGINE says why): the same statements through the query builder on both engines.
describe.each(ONE_ENGINE)('rule sets on %s', (engine) => {
  const t = testAppPerSuite(engine);
  const tokens = { owner: '', other: '', admin: '' };

  beforeAll(async () => {
    tokens.owner = (await createUser(t, 'rules-owner@example.com')).token;
    tokens.other = (await createUser(t, 'rules-other@example.com')).token;
    tokens.admin = await login(t.app, ADMIN.email, ADMIN.password);
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, payload });
  async function create(token: string, payload: object = body()) {
    const res = await call('POST', '/rule-sets', token, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; version: number; version_id: number; name: string; rules: unknown[]; is_team_default: boolean };
  }
  const listed = async (token: string) => ((await call('GET', '/rule-sets', token)).json().data as { id: number }[]).map((s) => s.id);

  it('creates version 1 and lists and reads it', async () => {
    const set = await create(tokens.owner, body(' Scouting ', [{ ...BUY, outcome: ' Buy ' }, REJECT]));
    expect(set).toMatchObject({ name: 'Scouting', version: 1, is_team_default: false, owner_email: 'rules-owner@example.com' });
    expect(set.rules).toEqual([BUY, REJECT]);
    expect(await listed(tokens.owner)).toContain(set.id);
    const read = await call('GET', `/rule-sets/${set.id}`, tokens.owner);
    expect(read.json()).toEqual(set);
    // Numbers are taken as numbers too, and stored as the filters' text.
    const numeric = await create(tokens.owner, body('n', [{ ...REJECT, conditions: [{ field: 'spread', operator: 'gt', value: 3 }] }]));
    expect(numeric.rules).toEqual([{ ...REJECT, conditions: [{ field: 'spread', operator: 'gt', value: '3' }] }]);
  });

  it('makes a new version on every edit and leaves the old one as it was', async () => {
    const v1 = await create(tokens.owner);
    const res = await call('PUT', `/rule-sets/${v1.id}`, tokens.owner, body('Renamed', [REJECT]));
    expect(res.statusCode, res.body).toBe(200);
    const v2 = res.json();
    expect(v2).toMatchObject({ id: v1.id, name: 'Renamed', version: 2, rules: [REJECT] });
    expect(v2.version_id).not.toBe(v1.version_id);
    const old = (await call('GET', `/rule-sets/${v1.id}?version=1`, tokens.owner)).json();
    expect(old).toMatchObject({ version: 1, version_id: v1.version_id, rules: [BUY, REJECT] });
    const versions = (await call('GET', `/rule-sets/${v1.id}/versions`, tokens.owner)).json();
    expect(versions.count).toBe(2);
    expect(versions.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await call('GET', `/rule-sets/${v1.id}?version=3`, tokens.owner)).statusCode).toBe(404);
    expect((await currentVersion(t.ctx.db, v1.id))?.id).toBe(v2.version_id);
    expect((await readRuleSetVersion(t.ctx.db, v1.version_id))?.rules).toEqual([BUY, REJECT]);
  });

  it('deletes a set from every list while jobs still read its versions', async () => {
    const set = await create(tokens.owner);
    // A job judged with version 1 keeps pointing at it.
    const [owner] = (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM users WHERE email = 'rules-owner@example.com'`)).rows;
    await t.ctx.db.execute(
      sql`INSERT INTO jobs (name, input_filename, owner_id, rule_set_version_id) VALUES ('judged', 'f.csv', ${owner!.id}, ${set.version_id})`,
    );
    expect((await call('DELETE', `/rule-sets/${set.id}`, tokens.owner)).statusCode).toBe(200);
    expect(await listed(tokens.owner)).not.toContain(set.id);
    expect(await listed(tokens.admin)).not.toContain(set.id);
    for (const url of [`/rule-sets/${set.id}`, `/rule-sets/${set.id}/versions`])
      expect((await call('GET', url, tokens.admin)).statusCode, url).toBe(404);
    expect((await call('PUT', `/rule-sets/${set.id}`, tokens.owner, body())).statusCode).toBe(404);
    expect((await call('DELETE', `/rule-sets/${set.id}`, tokens.owner)).statusCode).toBe(404);
    expect(await readRuleSetVersion(t.ctx.db, set.version_id)).toMatchObject({ rule_set_id: set.id, version: 1, rules: [BUY, REJECT] });
    expect(await currentVersion(t.ctx.db, set.id)).toBeUndefined();
    const { rows } = await t.ctx.db.execute<{ v: number }>(sql`SELECT rule_set_version_id AS v FROM jobs WHERE name = 'judged'`);
    expect(rows[0]?.v).toBe(set.version_id);
  });

  it('has one team default at a time, chosen by superusers only, readable by everyone', async () => {
    const a = await create(tokens.owner, body('A'));
    const b = await create(tokens.admin, body('B'));
    for (const token of [tokens.owner, tokens.other])
      expect((await call('POST', `/rule-sets/${a.id}/team-default`, token)).statusCode).toBe(403);
    expect((await call('POST', `/rule-sets/${a.id}/team-default`, undefined)).statusCode).toBe(401);

    const made = await call('POST', `/rule-sets/${a.id}/team-default`, tokens.admin);
    expect(made.json()).toMatchObject({ id: a.id, is_team_default: true });
    expect((await teamDefaultVersion(t.ctx.db))?.id).toBe(a.version_id);
    // Someone else sees it in their list and may read it, but not change it.
    expect(await listed(tokens.other)).toContain(a.id);
    expect((await call('GET', `/rule-sets/${a.id}`, tokens.other)).statusCode).toBe(200);
    expect((await call('GET', `/rule-sets/${a.id}/versions`, tokens.other)).statusCode).toBe(200);
    expect((await call('PUT', `/rule-sets/${a.id}`, tokens.other, body())).statusCode).toBe(404);
    expect((await call('DELETE', `/rule-sets/${a.id}`, tokens.other)).statusCode).toBe(404);

    // Choosing another moves the default; only one is ever the default.
    expect((await call('POST', `/rule-sets/${b.id}/team-default`, tokens.admin)).json().is_team_default).toBe(true);
    expect((await call('GET', `/rule-sets/${a.id}`, tokens.owner)).json().is_team_default).toBe(false);
    expect((await call('GET', `/rule-sets/${b.id}`, tokens.other)).statusCode).toBe(200);
    const { rows } = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM rule_sets WHERE is_team_default`);
    expect(rows[0]?.n).toBe(1);
    // Two superuser requests at once still leave one.
    await Promise.all([a.id, b.id].map((id) => call('POST', `/rule-sets/${id}/team-default`, tokens.admin)));
    const after = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM rule_sets WHERE is_team_default`);
    expect(after.rows[0]?.n).toBe(1);

    expect((await call('DELETE', `/rule-sets/${b.id}/team-default`, tokens.owner)).statusCode).toBe(403);
    await call('POST', `/rule-sets/${b.id}/team-default`, tokens.admin);
    expect((await call('DELETE', `/rule-sets/${b.id}/team-default`, tokens.admin)).json().is_team_default).toBe(false);
    expect(await teamDefaultVersion(t.ctx.db)).toBeUndefined();
    expect((await call('GET', `/rule-sets/${b.id}`, tokens.other)).statusCode).toBe(404);
    // A deleted set is not a default, and cannot become one.
    await call('POST', `/rule-sets/${b.id}/team-default`, tokens.admin);
    await call('DELETE', `/rule-sets/${b.id}`, tokens.admin);
    expect(await teamDefaultVersion(t.ctx.db)).toBeUndefined();
    expect((await call('POST', `/rule-sets/${b.id}/team-default`, tokens.admin)).statusCode).toBe(404);
  });

  it('lets only superusers change or delete the team default, its owner included (issue 29)', async () => {
    const set = await create(tokens.owner, body('Everyone', [BUY]));
    expect((await call('POST', `/rule-sets/${set.id}/team-default`, tokens.admin)).statusCode).toBe(200);
    const rejectAll = body('Everyone', [{ ...REJECT, conditions: [{ field: 'best_price', operator: 'gte', value: '0' }] }]);
    for (const [method, payload] of [
      ['PUT', rejectAll],
      ['DELETE', undefined],
    ] as const) {
      const url = `/rule-sets/${set.id}`;
      expect((await call(method, url, undefined, payload)).statusCode, `${method} anonymous`).toBe(401);
      expect((await call(method, url, tokens.other, payload)).statusCode, `${method} other`).toBe(404);
      const owner = await call(method, url, tokens.owner, payload);
      expect(owner.statusCode, `${method} owner`).toBe(403);
      expect(owner.json().detail).toMatch(/team default: only a superuser/);
    }
    // Nothing changed for the team: same version, still the default, still the owner's to read.
    expect((await teamDefaultVersion(t.ctx.db))?.id).toBe(set.version_id);
    expect((await call('GET', `/rule-sets/${set.id}`, tokens.owner)).json()).toMatchObject({ version: 1, is_team_default: true });

    // A superuser may edit it (a new version every job gets next) and delete it, which leaves no default.
    const edited = await call('PUT', `/rule-sets/${set.id}`, tokens.admin, rejectAll);
    expect(edited.json()).toMatchObject({ version: 2, is_team_default: true });
    expect((await teamDefaultVersion(t.ctx.db))?.id).toBe(edited.json().version_id);
    const deleted = await call('DELETE', `/rule-sets/${set.id}`, tokens.admin);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toMatch(/It was the team default: new jobs get no team default/);
    expect(await teamDefaultVersion(t.ctx.db)).toBeUndefined();

    // No longer the default, it is its owner's again.
    const mine = await create(tokens.owner, body('Mine', [BUY]));
    await call('POST', `/rule-sets/${mine.id}/team-default`, tokens.admin);
    await call('DELETE', `/rule-sets/${mine.id}/team-default`, tokens.admin);
    expect((await call('PUT', `/rule-sets/${mine.id}`, tokens.owner, body('Mine', [REJECT]))).statusCode).toBe(200);
    const ownDelete = await call('DELETE', `/rule-sets/${mine.id}`, tokens.owner);
    expect(ownDelete.json()).toEqual({ message: 'Rule set deleted successfully' });
  });

  it('records every save, delete and team default change in the audit trail', async () => {
    const events = async (id: number) =>
      (
        await t.ctx.db.execute<{ action: string; actor_email: string; target_label: string; details: Record<string, unknown> }>(
          sql`SELECT action, actor_email, target_label, details FROM audit_events WHERE target_type = 'rule_set' AND target_id = ${String(id)} ORDER BY id`,
        )
      ).rows;
    const a = await create(tokens.owner, body('Audited A'));
    const b = await create(tokens.owner, body('Audited B'));
    await call('PUT', `/rule-sets/${a.id}`, tokens.owner, body('Audited A', [REJECT]));
    await call('POST', `/rule-sets/${a.id}/team-default`, tokens.admin);
    await call('POST', `/rule-sets/${b.id}/team-default`, tokens.admin);
    await call('DELETE', `/rule-sets/${b.id}/team-default`, tokens.admin);
    // A refused change records nothing.
    await call('POST', `/rule-sets/${b.id}/team-default`, tokens.admin);
    expect((await call('DELETE', `/rule-sets/${b.id}`, tokens.owner)).statusCode).toBe(403);
    await call('DELETE', `/rule-sets/${b.id}`, tokens.admin);

    expect(await events(a.id)).toEqual([
      {
        action: 'rule_set.created',
        actor_email: 'rules-owner@example.com',
        target_label: 'Audited A',
        details: expect.objectContaining({ version: 1 }),
      },
      {
        action: 'rule_set.updated',
        actor_email: 'rules-owner@example.com',
        target_label: 'Audited A',
        details: expect.objectContaining({ version: 2 }),
      },
      {
        action: 'rule_set.team_default_set',
        actor_email: ADMIN.email,
        target_label: 'Audited A',
        details: expect.objectContaining({ version: 2 }),
      },
    ]);
    expect((await events(b.id)).map((e) => [e.action, e.actor_email, e.details.replaced ?? e.details.was_team_default])).toEqual([
      ['rule_set.created', 'rules-owner@example.com', undefined],
      ['rule_set.team_default_set', ADMIN.email, { id: a.id, name: 'Audited A' }],
      ['rule_set.team_default_unset', ADMIN.email, undefined],
      ['rule_set.team_default_set', ADMIN.email, undefined],
      ['rule_set.deleted', ADMIN.email, true],
    ]);
  });

  it('answers anonymous 401, another user 404 and a superuser 200 on every route', async () => {
    const set = await create(tokens.owner);
    const routes: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
      ['read', 'GET', `/rule-sets/${set.id}`],
      ['read an old version', 'GET', `/rule-sets/${set.id}?version=1`],
      ['versions', 'GET', `/rule-sets/${set.id}/versions`],
      ['edit', 'PUT', `/rule-sets/${set.id}`, body()],
      ['delete', 'DELETE', `/rule-sets/${set.id}`],
    ];
    for (const [name, method, url, payload] of routes) {
      expect((await call(method, url, undefined, payload)).statusCode, `${name} anonymous`).toBe(401);
      expect((await call(method, url, tokens.other, payload)).statusCode, `${name} other`).toBe(404);
      expect((await call(method, url, tokens.admin, payload)).statusCode, `${name} superuser`).toBe(200);
    }
    expect((await call('GET', '/rule-sets', undefined)).statusCode).toBe(401);
    expect((await call('POST', '/rule-sets', undefined, body())).statusCode).toBe(401);
    // Superusers list everyone's sets; users only their own (and the team default).
    const mine = await create(tokens.owner);
    expect(await listed(tokens.admin)).toContain(mine.id);
    expect(await listed(tokens.other)).not.toContain(mine.id);
  });

  it.each<[string, unknown, (string | number)[], RegExp]>([
    [
      'an unknown field',
      [{ ...BUY, conditions: [{ field: 'nope', operator: 'equals', value: '1' }] }],
      ['rules', 0, 'conditions', 0, 'field'],
      /Unknown field/,
    ],
    [
      'the row id',
      [REJECT, { ...BUY, conditions: [{ field: 'id', operator: 'gt', value: '1' }] }],
      ['rules', 1, 'conditions', 0, 'field'],
      /Unknown field/,
    ],
    [
      'a text operator on a number',
      [{ ...BUY, conditions: [BUY.conditions[0], { field: 'spread', operator: 'contains', value: '1' }] }],
      ['rules', 0, 'conditions', 1, 'operator'],
      /not allowed/,
    ],
    ['no rules', [], ['rules'], /at least one rule/],
    // Only the last rule may be the Otherwise rule (no conditions).
    ['a rule without conditions before the last', [{ ...BUY, conditions: [] }, REJECT], ['rules', 0, 'conditions'], /Only the last rule/],
    [
      'a value of the wrong type',
      [{ ...BUY, conditions: [{ field: 'best_price', operator: 'lte', value: 'twenty' }] }],
      ['rules', 0, 'conditions', 0, 'value'],
      /must be a number/,
    ],
    ['"No rule" as an outcome', [{ ...BUY, outcome: 'no rule' }], ['rules', 0, 'outcome'], /No rule/],
    ['a colour outside the palette', [{ ...BUY, color: 'black' }], ['rules', 0, 'color'], /Colour/],
    ['a rule that is not an object', ['Buy'], ['rules', 0], /./],
    // Issue 29: what judging a row costs is bounded (the judge of a 150k-row job took 36 s).
    [
      'more conditions in all than a set may have',
      Array.from({ length: RULES_MAX }, () => ({
        ...BUY,
        conditions: Array.from({ length: Math.floor(RULE_SET_CONDITIONS_MAX / RULES_MAX) + 1 }, () => BUY.conditions[0]),
      })),
      ['rules'],
      /at most \d+ conditions in all its rules/,
    ],
    // Issue 29: jsonb refuses a lone UTF-16 surrogate (it was a 500 and an error in the log).
    ['a lone surrogate in an outcome', [{ ...BUY, outcome: 'Buy \ud800' }], ['rules', 0, 'outcome'], /well-formed Unicode/],
    [
      'a lone surrogate in a condition value',
      [{ ...BUY, conditions: [{ field: 'title', operator: 'contains', value: 'a\udc00' }] }],
      ['rules', 0, 'conditions', 0, 'value'],
      /well-formed Unicode/,
    ],
    [
      'a condition without a value',
      [{ ...BUY, conditions: [{ field: 'spread', operator: 'gt' }] }],
      ['rules', 0, 'conditions', 0, 'value'],
      /./,
    ],
  ])('refuses %s with a 422 naming it, on create and edit', async (_name, rules, loc, msg) => {
    const set = await create(tokens.owner);
    for (const [method, url] of [
      ['POST', '/rule-sets'],
      ['PUT', `/rule-sets/${set.id}`],
    ] as const) {
      const res = await call(method, url, tokens.owner, { name: 'Bad', rules });
      expect(res.statusCode, res.body).toBe(422);
      const detail = res.json().detail as { loc: unknown[]; msg: string }[];
      expect(detail[0]?.loc).toEqual(['body', ...loc]);
      expect(detail[0]?.msg).toMatch(msg);
    }
    // Nothing was written: the set is still at version 1.
    expect((await call('GET', `/rule-sets/${set.id}`, tokens.owner)).json().version).toBe(1);
  });

  it('refuses a blank name and bad ids as 422s, never a 500', async () => {
    const blank = await call('POST', '/rule-sets', tokens.owner, body('  '));
    expect(blank.statusCode).toBe(422);
    expect(blank.json().detail[0].loc).toEqual(['body', 'name']);
    for (const url of ['/rule-sets/abc', '/rule-sets/0', '/rule-sets/99999999999', '/rule-sets/1?version=x']) {
      const res = await call('GET', url, tokens.owner);
      expect(res.statusCode, url).toBe(422);
    }
    expect((await call('GET', '/rule-sets/2147483647', tokens.owner)).statusCode).toBe(404);
  });
});
