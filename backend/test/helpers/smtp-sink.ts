// A real SMTP server on a free local port that keeps every message it receives, raw: the mailbox of
// the tests that send email over SMTP (password recovery, the watch digest).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  port: number;
  /** Every message received so far, as sent (headers and body). */
  received: string[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: string[] = [];
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        received.push(raw);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return {
    port: (sink.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => sink.close(resolve)),
  };
}
