// Starts what the browser tests run against, once per run, and returns the teardown:
// - an SMTP server (smtp-server) that files every message under E2E_MAIL_DIR, where the
//   `mailbox` fixture reads it (tests run in worker processes, so the mail goes through files);
// - the whole product the way the README starts it (`npm start` at the repo root: build the
//   frontend and the backend, then the API that serves it) on a free port with a fresh DATA_DIR,
//   the first superuser from app-env.ts, and SMTP pointed at the server above. Under `npm test`,
//   which has built both already (scripts/test.sh sets E2E_BUILT=1), only the start's second half
//   runs: `node backend/dist/main.js`, the same files, so one `npm test` builds once.
// The app's output goes to test-results/e2e-app.log (E2E_APP_LOG). E2E_APP_ROOT overrides the repo root.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { ADMIN, REFUSED_ONCE_ISBN, REJECTIONS_KEPT } from './app-env';

const here = path.dirname(fileURLToPath(import.meta.url));

async function freePort(): Promise<number> {
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  srv.close();
  await once(srv, 'close');
  return port;
}

async function startSmtp(mailDir: string): Promise<SMTPServer> {
  let n = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        // Written whole under a temporary name, then renamed: a reader never sees half a message.
        const file = path.join(mailDir, `${Date.now()}-${String(++n).padStart(5, '0')}.json`);
        writeFileSync(`${file}.tmp`, JSON.stringify({ to, at: Date.now(), raw: Buffer.concat(chunks).toString('utf8') }));
        renameSync(`${file}.tmp`, file);
        done();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  return smtp;
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const root = process.env.E2E_APP_ROOT ?? path.resolve(here, '../..');
  if (process.env.E2E_BUILT) {
    for (const built of ['frontend/dist/index.html', 'backend/dist/main.js']) {
      if (!existsSync(path.join(root, built))) throw new Error(`E2E_BUILT is set but ${built} is missing: run npm run build first`);
    }
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-data-'));
  const mailDir = mkdtempSync(path.join(tmpdir(), 'e2e-mail-'));
  const smtp = await startSmtp(mailDir);
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  // E2E_APP_LOG (relative to frontend/): each part of `npm test`'s run keeps its own app's log.
  const logFile = path.resolve(here, '..', process.env.E2E_APP_LOG ?? 'test-results/e2e-app.log');
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  console.log(`e2e: SMTP on ${smtpPort}; starting the app from ${root} on ${baseUrl} (DATA_DIR ${dataDir}, log ${logFile})…`);

  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const [command, args] = process.env.E2E_BUILT ? [process.execPath, ['--enable-source-maps', 'backend/dist/main.js']] : ['npm', ['start']];
  const child = spawn(command, args, {
    cwd: root,
    // Own process group, so stop() ends npm, the build and the API together (or the API alone).
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      PORT: String(port),
      DATA_DIR: dataDir,
      FIRST_SUPERUSER: ADMIN.email,
      FIRST_SUPERUSER_PASSWORD: ADMIN.password,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtpPort),
      SMTP_TLS: 'false',
      FRONTEND_HOST: baseUrl,
      // control.spec.ts: this ISBN is refused on its first request per marketplace, then answered.
      SANDBOX_FAIL_ISBNS: `${REFUSED_ONCE_ISBN}:1`,
      // history.spec.ts: a re-priced ISBN's prices move (the second request for it sees them 20 % lower).
      SANDBOX_PRICE_DRIFT: 'true',
      // paste.spec.ts: a paste of junk passes the limit on kept rejections.
      UPLOAD_MAX_REJECTIONS_KEPT: String(REJECTIONS_KEPT),
      // Every test signs up its own user from 127.0.0.1: far more than an office signs up in an hour.
      SIGNUP_MAX_PER_ADDRESS: '100000',
      // The sandbox, not Amazon: a job's batch need not wait 10 s behind the previous spec's.
      AMAZON_OFFERS_RATE_PER_SECOND: '20',
      AMAZON_CATALOG_RATE_PER_SECOND: '20',
    },
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = once(child, 'exit');
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  // Never leave the app running if the runner dies first.
  const onExit = () => child.exitCode === null && killGroup('SIGKILL');
  process.once('exit', onExit);

  const teardown = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    process.off('exit', onExit);
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    // The app logs its graceful stop after npm has exited: stop copying before the log file closes.
    for (const out of [child.stdout!, child.stderr!]) {
      out.unpipe(log);
      out.resume();
    }
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mailDir, { recursive: true, force: true });
  };

  const health = `${baseUrl}/api/v1/utils/health-check/`;
  const diedEarly = exited.then(([code, signal]) => {
    throw new Error(`the app exited (code ${code}, signal ${signal}) before answering ${health} (log: ${logFile})`);
  });
  diedEarly.catch(() => {}); // only an error while we wait for the health check
  try {
    await Promise.race([
      expect
        .poll(async () => (await fetch(health, { signal: AbortSignal.timeout(2000) }).catch(() => undefined))?.ok ?? false, {
          message: `${health} to answer (log: ${logFile})`,
          timeout: 240_000,
        })
        .toBe(true),
      diedEarly,
    ]);
  } catch (err) {
    await teardown();
    throw err;
  }
  console.log(`e2e: app ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  return teardown;
}
