// The API and the built frontend share one origin: client routes get index.html, API misses stay JSON.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, IMMUTABLE } from '../src/app.ts';
import type { App } from '../src/core/context.ts';
import { productRoutes } from '../src/routes.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

describe('serving the built frontend', () => {
  let t: TestApp;
  let app: App;
  beforeAll(async () => {
    t = await startTestApp('pg');
    const dist = mkdtempSync(path.join(os.tmpdir(), 'dist-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'app.js'), 'console.log(1)');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), 'console.log(2)');
    app = await buildApp(t.ctx, { frontendDist: dist, routes: productRoutes });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('answers client routes with index.html and files as themselves', async () => {
    for (const url of ['/', '/jobs?page=2', '/settings', '/no/such/page']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
    expect((await app.inject({ method: 'GET', url: '/app.js' })).body).toBe('console.log(1)');
  });

  it('lets browsers keep the hashed assets for good and revalidate index.html', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(asset.body).toBe('console.log(2)');
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
    for (const url of ['/', '/index.html', '/settings', '/app.js'])
      expect((await app.inject({ method: 'GET', url })).headers['cache-control'], url).toBe('public, max-age=0');
  });

  it('keeps unknown API paths a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
  });
});
