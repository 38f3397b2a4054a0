// Our processes (the API, the worker, the sandbox) spawned as children of a test, with the developer's
// own marketplace settings kept out: from the run's build (scripts/bundle.ts, `builtEntry`) as production
// runs them (`node backend/dist/main.js`), or a .ts source through tsx.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { inject } from 'vitest';
import { PROCESS_ENTRIES } from '../../scripts/bundle.ts';
import { marketplaceRegistry } from '../../src/marketplaces/registry.ts';
import { operationRateEnvNames } from '../../src/marketplaces/env.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * A process of the run's backend build (global-setup.ts), as production starts it, instead of tsx
 * compiling the sources at each start (the API's graceful stop: 20.7 s -> 17.9 s, 28.8 -> 26.0 CPU s).
 */
export function builtEntry(name: keyof typeof PROCESS_ENTRIES): string {
  return path.join(inject('backendBuild'), PROCESS_ENTRIES[name]);
}

/** What each process prints once it serves: the API's banner (its URL), the worker's and the sandbox's log lines. */
export const READY = {
  api: /is running at (http:\/\/\S+)/,
  worker: / serving /,
  sandbox: /marketplace sandbox listening on (http:\/\/[\w.:[\]]+)/,
};

export interface SpawnedProcess {
  child: ChildProcess;
  /** Resolves once the output contains the ready text. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  output: () => string;
  /** Resolves once the output matches `pattern` (the match), rejecting if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Neither exited nor killed yet. */
  running(): boolean;
}

/** Starts `entry`: a .ts source through tsx, a built .js file as is. */
export function spawnProcess(entry: string, env: Record<string, string>, readyText: string | RegExp): SpawnedProcess {
  const prefixes = MARKETPLACE_IDS.map((id) => `${marketplaceRegistry[id].envPrefix}_`);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !prefixes.some((p) => k.startsWith(p))));
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : ['--enable-source-maps'];
  const child = spawn(process.execPath, [...loader, entry], {
    cwd: path.dirname(SRC),
    env: { ...inherited, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'process-')), WORKER_POLL_INTERVAL_MS: '50', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let closed = false;
  const waiters: Array<() => void> = [];
  const recheck = () => {
    for (const check of waiters.splice(0)) check();
  };
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    recheck();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  // 'close' comes after the output is all read, so a last line is never missed.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      closed = true;
      recheck();
      resolve(code);
    }),
  );
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match) resolve(match);
        else if (closed) reject(new Error(`the process ended before its output matched ${pattern}:\n${output}`));
        else waiters.push(check);
      };
      check();
    });
  const ready = waitFor(new RegExp(readyText)).then(() => {});
  // A process a test kills before it was ready rejects `ready`; nobody may be waiting then.
  ready.catch(() => {});
  return {
    child,
    ready,
    exited,
    output: () => output,
    waitFor,
    running: () => !closed && child.exitCode === null && child.signalCode === null,
  };
}

/** Ends every process still running with SIGKILL (a test's cleanup, whatever state it left). */
export async function killAll(processes: SpawnedProcess[]): Promise<void> {
  for (const p of processes) if (p.running()) p.child.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
}

/** Per-marketplace env: fast enough for a test, timeouts within the lease. */
export function marketplaceEnv(over: Record<string, string>): Record<string, string> {
  const settings = { RATE_PER_SECOND: '1000', CONCURRENCY: '4', TIMEOUT_MS: '2000', ...over };
  return Object.fromEntries(
    MARKETPLACE_IDS.flatMap((id) => [
      ...Object.entries(settings).map(([k, v]) => [`${marketplaceRegistry[id].envPrefix}_${k}`, v]),
      // A marketplace paced per operation (Amazon) takes the rate on each of them.
      ...Object.values(operationRateEnvNames(id)).map((name) => [name, settings.RATE_PER_SECOND]),
    ]),
  );
}
