// Starts the whole product the way the README does (`npm start` at the repo root: build the
// frontend, then run the API that serves it) on a free port with a fresh data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';

export const ADMIN = { email: 'admin@example.com', password: 'changethis123' } as const;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningApp {
  baseUrl: string;
  logFile: string;
  stop(): Promise<void>;
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with code ${child.exitCode} before answering ${url}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

export async function startApp(opts: { root: string; dataDir: string; smtpPort: number; port?: number }): Promise<RunningApp> {
  const port = opts.port ?? (await freePort());
  const baseUrl = `http://localhost:${port}`;
  const logFile = path.join(opts.dataDir, 'app.log');
  const log = createWriteStream(logFile);
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn('npm', ['start'], {
    cwd: opts.root,
    // Own process group, so stop() ends npm, the build and the API together.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      PORT: String(port),
      DATA_DIR: opts.dataDir,
      FIRST_SUPERUSER: ADMIN.email,
      FIRST_SUPERUSER_PASSWORD: ADMIN.password,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(opts.smtpPort),
      SMTP_TLS: 'false',
      FRONTEND_HOST: baseUrl,
    },
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);

  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  // Never leave the app running if this process dies first.
  process.once('exit', () => {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  try {
    await waitForHealth(`${baseUrl}/api/v1/utils/health-check/`, child, 240_000);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message} (log: ${logFile})`);
  }
  return { baseUrl, logFile, stop };
}
