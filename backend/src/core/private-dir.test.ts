// Files under DATA_DIR are the service's alone (issue 20): the folders it makes, or finds made
// world-readable, end owner-only, and each outbox message (it holds a reset link) is owner-only too.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createMailer } from './mailer.ts';
import { ensurePrivateDir } from './private-dir.ts';

const modeOf = (p: string) => statSync(p).mode & 0o777;

describe('DATA_DIR is private to the service', () => {
  const made: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'private-dir-'));
    made.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('makes a new folder owner-only and tightens one that was open to everyone', () => {
    const fresh = path.join(scratch(), 'a', 'data');
    ensurePrivateDir(fresh);
    expect(modeOf(fresh)).toBe(0o700);
    const open = path.join(scratch(), 'open');
    mkdirSync(open, { mode: 0o755 });
    ensurePrivateDir(open);
    expect(modeOf(open)).toBe(0o700);
  });

  it('the generated secret key and the email outbox are readable by the service only', async () => {
    const dataDir = path.join(scratch(), 'data');
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'secret_key'))).toBe(0o600);
    const mailer = createMailer(config, () => {});
    await mailer.send({ to: 'someone@example.com', subject: 'Reset', html: '<p>link</p>', text: 'link' });
    const outbox = path.join(dataDir, 'outbox');
    expect(modeOf(outbox)).toBe(0o700);
    const [message] = readdirSync(outbox);
    expect(modeOf(path.join(outbox, String(message)))).toBe(0o600);
  });
});
