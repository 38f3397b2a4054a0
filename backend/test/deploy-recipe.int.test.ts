// The deploy recipe (Dockerfile, compose.yaml, deploy/Caddyfile) checked against the code it runs.
// This machine cannot pull images or run containers, so the files are read and their facts checked:
// the commands start files the build emits, every variable is one the configuration schema reads,
// the proxy passes server-sent events to every API, the health checks ask real routes, no root.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { BACKEND_DIR } from '../scripts/bundle.ts';
import { allSettingNames } from '../src/core/config.ts';
import { FEATURE_SECTIONS } from '../src/environment.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

const ROOT = path.resolve(BACKEND_DIR, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments and parser directives dropped. */
function dockerfile(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** The stages, each the instructions from its FROM on. */
function stages(instructions: Instruction[]): Instruction[][] {
  const result: Instruction[][] = [];
  for (const i of instructions) {
    if (i.keyword === 'FROM') result.push([]);
    result.at(-1)?.push(i);
  }
  return result;
}

/** An exec-form (JSON array) CMD or HEALTHCHECK CMD. */
function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  return JSON.parse(json) as string[];
}

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** `backend/dist/<file>` that a command runs. */
const distFile = (command: string[] | undefined) => command?.find((a) => a.startsWith('backend/dist/'));
const runs = (s: Service, file: string) => distFile(s.command) === `backend/dist/${file}`;
/** The URL path a probe fetches (`node -e "fetch('http://…:' + PORT + '/api/…')…"`). */
const probedPath = (probe: string) => /'(\/[^']*)'\)/.exec(probe)?.[1];

describe('deploy recipe', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as Compose;
  const services = Object.entries(compose.services);
  const app = services.filter(([, s]) => s.image === 'price-lookup-dashboard:latest');
  const apis = app.filter(([, s]) => runs(s, 'main.js'));
  const workers = app.filter(([, s]) => runs(s, 'worker.js'));
  const instructions = dockerfile(read('Dockerfile'));
  const built = stages(instructions);
  const final = built.at(-1) ?? [];
  // The run's backend build (test/helpers/global-setup.ts, scripts/bundle.ts as `npm run build` runs it).
  const build = inject('backendBuild');
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp('pg');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** What a GET of `route` answers on the real app (built with buildApp, injected). */
  const answer = async (route: string) => (await t.app.inject({ method: 'GET', url: route })).statusCode;

  it('the Dockerfile builds in stages from Node 24 and runs the compiled API as a user other than root', async () => {
    expect(built.length).toBeGreaterThanOrEqual(2);
    // Each stage starts from Node 24 or from an earlier stage.
    const names: string[] = [];
    for (const stage of built) {
      const [from = '', , name] = stage[0]?.args.split(/\s+/) ?? [];
      expect(/^node:24([-.]|$)/.test(from) || names.includes(from), from).toBe(true);
      if (name) names.push(name);
    }
    const runLines = instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runLines.some((r) => /^npm ci\b/.test(r) && !r.includes('--omit=dev'))).toBe(true);
    expect(runLines).toContain('npm run build');
    // The runtime's packages come from an install without dev dependencies.
    const deps = built.find((stage) => stage.some((i) => i.keyword === 'RUN' && /npm (ci|prune) .*--omit=dev/.test(i.args)));
    const depsName = /\bAS\s+(\S+)/i.exec(deps?.[0]?.args ?? '')?.[1];
    expect(final.some((i) => i.keyword === 'COPY' && i.args.includes(`--from=${depsName}`) && i.args.includes('node_modules'))).toBe(true);

    const users = final.filter((i) => i.keyword === 'USER').map((i) => i.args.split(':')[0]);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users.at(-1));

    const cmd = execForm(final.findLast((i) => i.keyword === 'CMD')?.args ?? '');
    expect(cmd[0]).toBe('node');
    expect(distFile(cmd)).toBe('backend/dist/main.js');
    expect(existsSync(path.join(build, path.basename(distFile(cmd) ?? '')))).toBe(true);
    // The bundles are ES modules: backend/package.json ("type": "module") goes in beside dist/.
    expect(JSON.parse(read('backend/package.json')).type).toBe('module');
    expect(final.some((i) => i.keyword === 'COPY' && /backend\/package\.json/.test(i.args))).toBe(true);
  });

  it('the Dockerfile’s HEALTHCHECK asks a route the API answers', async () => {
    const check = final.find((i) => i.keyword === 'HEALTHCHECK');
    const probe = execForm(check?.args.slice(check.args.indexOf('CMD')) ?? '').join(' ');
    const route = probedPath(probe);
    expect(route).toBe('/api/v1/health/ready');
    expect(await answer(route ?? '')).toBe(200);
  });

  it('compose runs two APIs and two workers, each command a file the build emits', () => {
    expect(apis.map(([name]) => name)).toHaveLength(2);
    expect(workers.map(([name]) => name)).toHaveLength(2);
    for (const [name, s] of app) {
      const file = distFile(s.command);
      expect(file, name).toBeDefined();
      expect(s.command?.[0], name).toBe('node');
      expect(existsSync(path.join(build, path.basename(file ?? ''))), `${name}: ${file}`).toBe(true);
    }
    // Workers serve no HTTP, so the image's HTTP health check is off for them.
    for (const [name, s] of workers) expect(s.healthcheck?.disable, name).toBe(true);
    // Every process waits for a healthy database.
    for (const [name, s] of app.filter(([, s]) => !runs(s, 'sandbox.js')))
      expect(s.depends_on?.postgres?.condition, name).toBe('service_healthy');
  });

  it('every variable compose gives the app is one the configuration schema reads', () => {
    const known = new Set(allSettingNames(FEATURE_SECTIONS));
    for (const [name, s] of app) {
      const unknown = Object.keys(s.environment ?? {}).filter((v) => !known.has(v));
      expect(unknown, name).toEqual([]);
    }
    for (const [name, s] of [...apis, ...workers]) {
      const env = s.environment ?? {};
      expect(env.DATABASE_URL, name).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
      expect(env.NODE_ENV, name).toBe('production');
      expect(env.SECRET_KEY, name).toMatch(/^\$\{SECRET_KEY:\?/);
    }
    for (const [name, s] of apis) {
      // The worker and sandbox run in their own containers, not inside each API.
      expect([s.environment?.RUN_WORKER, s.environment?.RUN_SANDBOX], name).toEqual(['false', 'false']);
      // Behind one proxy, the login throttle must see the client's address.
      expect(s.environment?.TRUST_PROXY, name).toBe('1');
    }
  });

  it('PostgreSQL 16 keeps its data in a volume and says when it is ready', () => {
    const pg = compose.services.postgres;
    expect(pg?.image).toBe('postgres:16');
    const volume = pg?.volumes?.find((v) => v.endsWith(':/var/lib/postgresql/data'))?.split(':')[0];
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    expect(String(pg?.healthcheck?.test)).toContain('pg_isready');
  });

  it('the proxy (Caddy) reaches every API, flushes at once so events pass, and probes a real route', async () => {
    const proxy = Object.values(compose.services).find((s) => s.image?.startsWith('caddy:'));
    const mount = proxy?.volumes?.find((v) => v.endsWith(':/etc/caddy/Caddyfile:ro'));
    expect(mount?.split(':')[0]).toBe('./deploy/Caddyfile');
    const caddyfile = read('deploy/Caddyfile')
      .split('\n')
      .filter((l) => !l.trim().startsWith('#'))
      .join('\n');
    const block = /reverse_proxy\s+([^{]+)\{([^}]*)\}/.exec(caddyfile);
    const upstreams = block?.[1]?.trim().split(/\s+/) ?? [];
    expect(upstreams.sort()).toEqual(apis.map(([name, s]) => `${name}:${s.environment?.PORT}`).sort());
    const options = block?.[2] ?? '';
    expect(options).toMatch(/^\s*flush_interval\s+-1\s*$/m);
    // Compression would buffer the event stream.
    expect(caddyfile).not.toMatch(/^\s*encode\b/m);
    const route = /^\s*health_uri\s+(\S+)/m.exec(options)?.[1];
    expect(await answer(route ?? '')).toBe(200);
    for (const [name] of apis) expect(proxy?.depends_on?.[name]?.condition).toBe('service_healthy');
  });

  it('mail goes to the mail catcher, and keyless marketplaces to the sandbox service', async () => {
    const mailpit = Object.entries(compose.services).find(([, s]) => s.image?.startsWith('axllent/mailpit'));
    expect(mailpit).toBeDefined();
    for (const [name, s] of apis) {
      expect(s.environment?.SMTP_HOST, name).toBe(mailpit?.[0]);
      expect(s.environment?.SMTP_PORT, name).toBe('1025');
    }
    const [sandboxName, sandbox] = app.find(([, s]) => runs(s, 'sandbox.js')) ?? [];
    for (const [name, s] of [...apis, ...workers])
      expect(s.environment?.SANDBOX_URL, name).toBe(`http://${sandboxName}:${sandbox?.environment?.SANDBOX_PORT}`);
    // The sandbox's own health check asks its stats route.
    const probe = [sandbox?.healthcheck?.test ?? []].flat().join(' ');
    expect(probe).toContain(`http://127.0.0.1:${sandbox?.environment?.SANDBOX_PORT}/_sandbox/stats`);
  });
});
