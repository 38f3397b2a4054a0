import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseEnv } from './config.ts';

describe('configuration', () => {
  it('lists every problem at once', () => {
    try {
      parseEnv({ PORT: 'eighty', FIRST_SUPERUSER: 'not-an-email', SMTP_TLS: 'maybe' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      for (const name of ['PORT', 'FIRST_SUPERUSER', 'SMTP_TLS']) expect(msg).toContain(`- ${name}:`);
    }
  });

  it('requires SECRET_KEY in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/SECRET_KEY is required when NODE_ENV=production/);
    expect(parseEnv({ NODE_ENV: 'production', SECRET_KEY: 's'.repeat(32) }).SECRET_KEY).toHaveLength(32);
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
});
