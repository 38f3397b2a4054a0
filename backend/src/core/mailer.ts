// Outgoing email: SMTP when SMTP_HOST is set, otherwise .eml files in DATA_DIR/outbox so the
// embedded default works offline and a developer can still open the message.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from './config.ts';
import { ensurePrivateDir } from './private-dir.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (the watch digest's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: OutgoingEmail): Promise<void>;
  /** Where messages go, for the start-up banner. */
  describe(): string;
}

export function createMailer(config: Config, log: (msg: string) => void): Mailer {
  const from = config.EMAILS_FROM_NAME ? `"${config.EMAILS_FROM_NAME}" <${config.EMAILS_FROM_EMAIL}>` : config.EMAILS_FROM_EMAIL;
  if (config.SMTP_HOST) {
    const transport: Transporter = nodemailer.createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SSL,
      requireTLS: config.SMTP_TLS && !config.SMTP_SSL,
      ignoreTLS: !config.SMTP_TLS && !config.SMTP_SSL,
      auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } : undefined,
    });
    return {
      async send(m) {
        await transport.sendMail({ from, ...m });
      },
      describe: () => `SMTP ${config.SMTP_HOST}:${config.SMTP_PORT}`,
    };
  }
  const outbox = path.join(config.DATA_DIR, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({ from, ...m });
      ensurePrivateDir(config.DATA_DIR);
      ensurePrivateDir(outbox);
      // A random part keeps two messages in the same millisecond (to the same address) apart.
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}-${m.to.replace(/[^a-z0-9@.-]/gi, '_')}.eml`,
      );
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log(`Email to ${m.to} ("${m.subject}") written to ${file}`);
    },
    describe: () => `outbox folder ${outbox} (set SMTP_HOST to send real email)`,
  };
}
