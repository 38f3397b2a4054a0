import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, allSettingNames, loadConfig, parseConfig } from './config.ts';
import { FEATURE_SECTIONS, apiStartsSandbox, loadEnvironment } from '../environment.ts';

/** The message a bad environment is refused with. */
function refusal(load: () => unknown): string {
  try {
    load();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the environment was accepted');
}

describe('configuration', () => {
  it('lists every problem of every section in one message, in every process', () => {
    const bad = {
      PORT: 'eighty', // server
      DATABASE_POOL_SIZE: '0', // database
      FIRST_SUPERUSER: 'not-an-email', // auth
      SMTP_TLS: 'maybe', // mail
      UPLOAD_MAX_ROWS: '-1', // uploads
      ALIBRIS_RATE_PER_SECOND: 'fast', // marketplaces
      WORKER_LEASE_MS: 'soon', // worker
      SANDBOX_NO_OFFER_SHARE: '2', // sandbox
    };
    for (const process of ['api', 'worker', 'sandbox'] as const) {
      const msg = refusal(() => loadEnvironment(process, bad));
      for (const name of Object.keys(bad)) expect(msg).toContain(`- ${name}:`);
    }
    expect(refusal(() => loadEnvironment('api', bad))).toMatch(/- SANDBOX_NO_OFFER_SHARE: .* \[sandbox\]/);
  });

  it("adds each process's own rules to the same message", () => {
    const msg = refusal(() => loadEnvironment('worker', { PORT: 'eighty' }));
    expect(msg).toContain('- PORT:');
    expect(msg).toContain('- DATABASE_URL: not set: an extra worker must share');
    expect(msg).toContain('- ABEBOOKS_CLIENT_KEY: not set, and no sandbox to use instead');
    // The API starts its own sandbox; the standalone sandbox needs neither.
    expect(() => loadEnvironment('api', {})).not.toThrow();
    expect(() => loadEnvironment('sandbox', {})).not.toThrow();
    expect(refusal(() => loadEnvironment('api', { RUN_SANDBOX: 'false' }))).toContain('- BIBLIO_API_KEY: not set, and no sandbox');
  });

  it('takes one default per setting, the same in every process', () => {
    const defaults = loadEnvironment('api', {});
    expect(loadEnvironment('sandbox', {})).toEqual(defaults);
    expect(defaults.sandbox.options.port).toBe(0);
    expect(defaults.server.PORT).toBe(8000);
    expect(defaults.worker.tuning.leaseMs).toBe(120_000);
    expect(defaults.answers.LOOKUP_REUSE_WINDOW).toBe(86_400_000);
    expect(defaults.answers.SCAN_DUPLICATE_DAYS).toBe(30);
    expect(defaults.answers.OFFLINE_PACK_DAYS).toBe(30);
    expect(loadEnvironment('api', { LOOKUP_REUSE_WINDOW: '90m' }).answers.LOOKUP_REUSE_WINDOW).toBe(5_400_000);
    expect(loadEnvironment('api', { LOOKUP_REUSE_WINDOW: '0' }).answers.LOOKUP_REUSE_WINDOW).toBe(0);
    expect(() => loadEnvironment('api', { LOOKUP_REUSE_WINDOW: 'a week' })).toThrow(/LOOKUP_REUSE_WINDOW/);
    expect(defaults.marketplaces.alibris.ratePerSecond).toBe(2);
    // Every setting is read by exactly one section.
    const names = allSettingNames(FEATURE_SECTIONS);
    expect(names.length).toBeGreaterThan(80);
    expect(new Set(names).size).toBe(names.length);
  });

  it('counts an empty variable as unset', () => {
    const env = loadEnvironment('api', { PORT: '', SMTP_TLS: '', DATABASE_URL: '', SANDBOX_PORT: '' });
    expect(env.server.PORT).toBe(8000);
    expect(env.mail.SMTP_TLS).toBe(true);
    expect(env.database.DATABASE_URL).toBeUndefined();
  });

  it('starts a sandbox in the API only when one is needed and none is named', () => {
    expect(apiStartsSandbox(loadEnvironment('api', {}))).toBe(true);
    expect(apiStartsSandbox(loadEnvironment('api', { SANDBOX_URL: 'http://127.0.0.1:8090' }))).toBe(false);
    const keys = {
      ABEBOOKS_CLIENT_KEY: 'a',
      BIBLIO_API_KEY: 'b',
      ALIBRIS_API_KEY: 'c',
      PALLETIQ_API_KEY: 'd',
      AMAZON_REFRESH_TOKEN: 'e',
      EBAY_CLIENT_ID: 'f',
    };
    expect(apiStartsSandbox(loadEnvironment('api', keys))).toBe(false);
    expect(apiStartsSandbox(loadEnvironment('api', { ...keys, RUN_SANDBOX: 'true' }))).toBe(true);
  });

  it('requires SECRET_KEY in production', () => {
    expect(refusal(() => parseConfig({}, { NODE_ENV: 'production' }))).toMatch(
      /SECRET_KEY: SECRET_KEY is required when NODE_ENV=production/,
    );
    expect(parseConfig({}, { NODE_ENV: 'production', SECRET_KEY: 's'.repeat(32) }).auth.SECRET_KEY).toHaveLength(32);
  });

  it('generates a secret once under DATA_DIR in the embedded default and keeps it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.SECRET_KEY.length).toBeGreaterThanOrEqual(32);
    expect(second.SECRET_KEY).toBe(first.SECRET_KEY);
    expect(readFileSync(path.join(dir, 'secret_key'), 'utf8')).toBe(first.SECRET_KEY);
    expect(first.FRONTEND_HOST).toBe('http://localhost:8000');
  });

  it('.env.example lists every setting once, and nothing else', () => {
    const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    const listed = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    const names = allSettingNames(FEATURE_SECTIONS);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...names].sort());
  });
});
