// Each integration file's engines are one line at its top (helpers/databases.ts): `describe.each(ENGINES)`
// for both, `describe.each(ONE_ENGINE)` for one. docs/development.md lists every file under its choice,
// so a reader sees at a glance what runs twice and why; this keeps that list true as files come and go.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BACKEND = path.resolve(import.meta.dirname, '..');
const DOC = path.resolve(BACKEND, '../docs/development.md');

type Choice = 'both' | 'one' | 'fixed';

function integrationFiles(): string[] {
  const under = (dir: string) =>
    readdirSync(path.join(BACKEND, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.int.test.ts'))
      .map((f) => path.join(dir, f));
  return [...under('test'), ...under('src')].sort();
}

function choiceInCode(file: string): Choice {
  const text = readFileSync(path.join(BACKEND, file), 'utf8');
  const both = text.includes('describe.each(ENGINES)');
  const one = text.includes('describe.each(ONE_ENGINE)');
  expect(both && one, `${file} names both ENGINES and ONE_ENGINE in describe.each: one marker a file`).toBe(false);
  return both ? 'both' : one ? 'one' : 'fixed';
}

/** The docs' table rows `| both … | `a.int.test.ts`, … |`: file names by choice. */
function choiceInDocs(): Map<string, Choice> {
  const listed = new Map<string, Choice>();
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    const row = /^\| (both|one|fixed) /.exec(line);
    if (!row) continue;
    for (const [, name] of line.matchAll(/`([\w./-]+\.int\.test\.ts)`/g)) listed.set(name as string, row[1] as Choice);
  }
  return listed;
}

describe('which engines each integration file runs on', () => {
  it('is listed in docs/development.md as the file declares it', () => {
    const files = integrationFiles();
    expect(files.length).toBeGreaterThan(50);
    const docs = choiceInDocs();
    const inCode = Object.fromEntries(files.map((f) => [path.basename(f), choiceInCode(f)]));
    expect(Object.fromEntries([...docs].sort())).toEqual(Object.fromEntries(Object.entries(inCode).sort()));
  });
});
