// Password recovery over real SMTP: a local smtp-server sink receives the email, and its link resets the password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, startTestApp, createUser, type TestApp } from './helpers/app.ts';
import { must } from '@app/domain/must';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.ts';

describe('password recovery through a real SMTP server', () => {
  let sink: SmtpSink;
  let received: string[];
  let t: TestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    received = sink.received;
    t = await startTestApp('pg', {
      captureMail: false,
      env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), SMTP_TLS: 'false' },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('delivers a plain-text and HTML email whose link resets the password once', async () => {
    await createUser(t, 'mailme@example.com', 'original-password');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/mailme@example.com' });
    expect(res.statusCode).toBe(200);
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(received).toHaveLength(1);
    const raw = must(received[0], 'one mail received')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(raw).toMatch(/^To: mailme@example.com/m);
    expect(raw).toContain('Content-Type: text/plain');
    expect(raw).toContain('Content-Type: text/html');
    const token = must(raw.match(/\/reset-password\?token=([A-Za-z0-9._%-]+)/)?.[1], 'a reset link in the mail');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reset-password/',
      payload: { token: decodeURIComponent(token), new_password: 'from-the-email' },
    });
    expect(reset.statusCode).toBe(200);
    await expect(login(t.app, 'mailme@example.com', 'from-the-email')).resolves.toBeTruthy();
    const reused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reset-password/',
      payload: { token: decodeURIComponent(token), new_password: 'second-try-pass' },
    });
    expect(reused.json()).toEqual({ detail: 'Invalid token' });
  });
});
