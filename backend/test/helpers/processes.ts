// Our real processes (API, worker, sandbox) started as children of a test: from the TypeScript sources
// through tsx, or from a build (scripts/bundle.ts) as production runs them. Each one's output is kept
// for assertions and for the failure message; a process is ready once its output says so.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { marketplaceRegistry } from '../../src/marketplaces/registry.ts';

export const BACKEND_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** The TypeScript entry points, for `spawnProcess(name, ['--import', 'tsx', SOURCE_ENTRIES.worker], …)`. */
export const SOURCE_ENTRIES = {
  api: path.join(BACKEND_DIR, 'src/main.ts'),
  worker: path.join(BACKEND_DIR, 'src/worker-main.ts'),
  sandbox: path.join(BACKEND_DIR, 'src/sandbox-main.ts'),
};

/** What each process prints once it serves: the API's banner, the worker's and the sandbox's log lines. */
export const READY = {
  api: /is running at (http:\/\/\S+)/,
  worker: / serving /,
  sandbox: /marketplace sandbox listening on (http:\/\/[\w.:[\]]+)/,
};

export interface ChildApp {
  name: string;
  child: ChildProcess;
  /** Resolves with the ready line's first group (a URL) or the whole match; rejects if the process exits first. */
  ready: Promise<string>;
  /** Resolves with the exit code (null after a signal) once the process ended. */
  exited: Promise<number | null>;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  running(): boolean;
}

/**
 * The test runner's environment without the developer's own marketplace settings (keys, URLs,
 * rates), which must not leak into a test; everything else (PATH, the Node 24 of npm) stays.
 */
export function inheritedEnv(): Record<string, string> {
  const prefixes = MARKETPLACE_IDS.map((id) => `${marketplaceRegistry[id].envPrefix}_`);
  return Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !prefixes.some((p) => e[0].startsWith(p))),
  );
}

/** The same marketplace settings for every marketplace: `{RATE_PER_SECOND: '5'}` → ABEBOOKS_RATE_PER_SECOND=5, … */
export function everyMarketplace(settings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    MARKETPLACE_IDS.flatMap((id) => Object.entries(settings).map(([k, v]) => [`${marketplaceRegistry[id].envPrefix}_${k}`, v])),
  );
}

/** Starts `node …args` in backend/ with the inherited environment, a DATA_DIR of its own and `env` on top. */
export function spawnProcess(name: string, args: string[], env: Record<string, string>, readyWhen: RegExp): ChildApp {
  const child = spawn(process.execPath, args, {
    cwd: BACKEND_DIR,
    env: { ...inheritedEnv(), DATA_DIR: mkdtempSync(path.join(tmpdir(), `${name}-`)), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = readyWhen.exec(output);
      if (found) resolve(found[1] ?? found[0]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`${name} exited (${code ?? child.signalCode}) before it was ready:\n${output}`)));
  });
  // A process killed by the test before it was ready rejects `ready`; nobody may be waiting then.
  ready.catch(() => {});
  return { name, child, ready, exited, output: () => output, running: () => child.exitCode === null && child.signalCode === null };
}

/** Ends every process still running with SIGKILL (a test's cleanup, whatever state it left). */
export async function killAll(apps: ChildApp[]): Promise<void> {
  for (const app of apps) if (app.running()) app.child.kill('SIGKILL');
  await Promise.all(apps.map((app) => app.exited));
}
