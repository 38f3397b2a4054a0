// Guarded by default: every registered route is either listed public or refuses a caller without a
// token, so a route added without a thought for access is guarded all the same.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { App, AppContext } from '../src/core/context.ts';
import { API_PREFIX, DOCS_PREFIX, PUBLIC_API_ROUTES } from '../src/public-routes.ts';
import { routeKey } from '../src/auth/guard.ts';
import { DECISIONS_ONLY_REFUSAL, openToDecisionsOnly } from '../src/decisions-only-routes.ts';
import { productRoutes } from '../src/routes.ts';
import { bearer, createUser, startTestApp, type TestApp } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';

interface Route {
  method: string;
  url: string;
}

/** Every route of an app, from Fastify's own listing (a tree: one path segment per line). */
function registeredRoutes(app: App): Route[] {
  const routes: Route[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = line.match(/^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/);
    if (!m) continue;
    const [, indent = '', segment = '', methods = ''] = m;
    const depth = indent.length / 4;
    const url = (prefixes[depth - 1] ?? '') + segment;
    prefixes[depth] = url;
    for (const method of methods ? methods.split(', ') : []) routes.push({ method, url });
  }
  return routes;
}

/** A concrete path for a route pattern: any value will do, the guard answers before the handler. */
const concrete = (url: string) =>
  url
    .replace(':user_id', '00000000-0000-4000-8000-000000000000')
    .replace(':email', 'someone@example.com')
    .replace(/:\w+/g, '1')
    .replace('*', 'x');

/** A route module nobody guarded on purpose. */
function unguardedByIntent(app: App, _ctx: AppContext) {
  app.get('/canary', { schema: { response: { 200: z.string() } } }, async () => 'should not be reachable anonymously');
}

// Access is decided before any engine-specific code runs: one engine (ONE_ENGINE says which and why).
describe.each(ONE_ENGINE)('every route on %s', (engine) => {
  let t: TestApp;
  let app: App;
  const dist = mkdtempSync(path.join(os.tmpdir(), 'dist-'));
  beforeAll(async () => {
    t = await startTestApp(engine);
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    app = await buildApp(t.ctx, { frontendDist: dist, routes: [...productRoutes, unguardedByIntent] });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('is listed public or answers 401 without a token', async () => {
    const routes = registeredRoutes(app);
    expect(routes.length).toBeGreaterThan(40);
    const guarded: string[] = [];
    for (const { method, url } of routes) {
      if (!url.startsWith(API_PREFIX)) {
        // Outside the API there is only public matter: the docs and the built frontend's files.
        expect(url.startsWith(DOCS_PREFIX) || existsSync(path.join(dist, url)), `${method} ${url}`).toBe(true);
        continue;
      }
      const res = await app.inject({ method: method as 'GET', url: concrete(url) });
      if (PUBLIC_API_ROUTES.has(routeKey(method, url))) {
        expect(res.statusCode, `${method} ${url} is public`).not.toBe(401);
        continue;
      }
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      if (method !== 'HEAD') expect(res.json(), `${method} ${url}`).toEqual({ detail: 'Not authenticated' });
      guarded.push(`${method} ${url}`);
    }
    expect(guarded).toContain(`GET ${API_PREFIX}/canary`);
    expect(guarded).toContain(`POST ${API_PREFIX}/users/`);
  });

  it('refuses a decisions-only account every route but its own account, sign-out, live events and scanning', async () => {
    const { token } = await createUser(t, 'scout-only@example.com', 'user-password-1', { decisions_only: true });
    const open: string[] = [];
    for (const { method, url } of registeredRoutes(app)) {
      const key = routeKey(method, url);
      if (!url.startsWith(API_PREFIX) || PUBLIC_API_ROUTES.has(key) || method === 'HEAD') continue;
      // Not signing the account out or deleting it half way through the walk.
      if (['POST /api/v1/login/sign-out', 'POST /api/v1/login/sign-out-everywhere', 'DELETE /api/v1/users/me'].includes(key)) continue;
      // The live stream stays open; the guard's answer is what matters, and it would be a 403 at once.
      if (key === `GET ${API_PREFIX}/jobs/events`) continue;
      const res = await app.inject({ method: method as 'GET', url: concrete(url), headers: bearer(token) });
      const refused = res.statusCode === 403 && res.json().detail === DECISIONS_ONLY_REFUSAL;
      expect(refused, `${key}: ${res.statusCode} ${res.body.slice(0, 120)}`).toBe(!openToDecisionsOnly(key, url));
      if (!refused) open.push(key);
    }
    expect(open).toEqual(
      expect.arrayContaining([`GET ${API_PREFIX}/users/me`, `POST ${API_PREFIX}/scan/sessions`, `GET ${API_PREFIX}/scan/sessions/:id`]),
    );
    expect(open.every((key) => openToDecisionsOnly(key, key.split(' ')[1] ?? ''))).toBe(true);
  });

  it('lists as public only routes that exist', () => {
    const registered = new Set(registeredRoutes(app).map((r) => routeKey(r.method, r.url)));
    for (const key of PUBLIC_API_ROUTES) expect(registered, key).toContain(key);
  });

  it('documents the bearer token on guarded routes only', () => {
    const doc = app.swagger() as { paths: Record<string, Record<string, { security?: unknown }>> };
    for (const [url, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const key = routeKey(method.toUpperCase(), url.replace(/\{(\w+)\}/g, ':$1'));
        expect(op.security === undefined, key).toBe(PUBLIC_API_ROUTES.has(key));
      }
    }
  });
});
