// A tiny SMTP server that keeps every message in memory, so the browser tests can read the
// password-recovery email. Plain SMTP only (the app runs with SMTP_TLS=false); no dependencies.
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  to: string[];
  /** Header block and decoded text of every leaf MIME part, concatenated. */
  text: string;
  raw: string;
}

export interface SmtpSink {
  port: number;
  messages: ReceivedMail[];
  /** Resolves with the first message to `address` that arrives after (or already arrived since) `since`. */
  waitFor(address: string, opts?: { timeoutMs?: number; since?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function splitHeaders(part: string): [string, string] {
  const i = part.search(/\r?\n\r?\n/);
  return i < 0 ? [part, ''] : [part.slice(0, i), part.slice(i).replace(/^\r?\n\r?\n/, '')];
}

function header(headers: string, name: string): string {
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  return unfolded.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim() ?? '';
}

/** Decoded text of a MIME entity: walks multipart bodies, undoes QP and base64. */
export function decodeMime(entity: string): string {
  const [headers, body] = splitHeaders(entity);
  const type = header(headers, 'Content-Type');
  const boundary = type.match(/boundary="?([^";]+)"?/i)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .map((p) => decodeMime(p.replace(/^\r?\n/, '')))
      .join('\n');
  }
  const encoding = header(headers, 'Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: (ReceivedMail & { at: number })[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let rcpt: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 e2e-smtp-sink ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          // Undo dot-stuffing (RFC 5321 §4.5.2).
          const raw = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push({ to: rcpt, raw, text: decodeMime(raw), at: Date.now() });
          rcpt = [];
          reply('250 OK: queued');
          for (const w of waiters) w();
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          reply('250-e2e-smtp-sink');
          reply('250 8BITMIME');
        } else if (verb === 'HELO') reply('250 e2e-smtp-sink');
        else if (verb === 'MAIL') reply('250 OK');
        else if (verb === 'RCPT') {
          rcpt.push(line.match(/<([^>]*)>/)?.[1] ?? '');
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK');
        else reply('502 Command not implemented');
      }
    });
    socket.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');

  return {
    port: (server.address() as AddressInfo).port,
    messages,
    waitFor(address, { timeoutMs = 15_000, since = 0 } = {}) {
      const find = () => messages.find((m) => m.at >= since && m.to.some((t) => t.toLowerCase() === address.toLowerCase()));
      return new Promise((resolve, reject) => {
        const found = find();
        if (found) return resolve(found);
        const check = () => {
          const m = find();
          if (!m) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(m);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No email to ${address} within ${timeoutMs} ms (received: ${messages.map((m) => m.to.join(',')).join('; ') || 'none'})`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
