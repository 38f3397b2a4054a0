// What every spec shares: the running app, the browser and the mailbox. run.ts fills it in
// before importing the specs.
import type { Browser } from 'playwright-core';
import type { SmtpSink } from './smtp-sink';

export interface World {
  baseUrl: string;
  browser: Browser;
  mail: SmtpSink;
  artifacts: string;
}

let current: World | undefined;

export function setWorld(w: World): void {
  current = w;
}

export function world(): World {
  if (!current) throw new Error('e2e world not set: run the specs through e2e/run.ts');
  return current;
}
