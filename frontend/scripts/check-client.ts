// Fails when src/client is not what @hey-api/openapi-ts generates from openapi.json today
// (house habit 3: the generated client is regenerated, never edited). Runs in the test command.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const frontend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const committed = path.join(frontend, 'src/client');
// A sibling of src/client, so the generated import of src/lib/api-config is the same relative path.
const fresh = mkdtempSync(path.join(frontend, 'src', '.check-client-'));

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

function read(dir: string, file: string): string | undefined {
  try {
    return readFileSync(path.join(dir, file), 'utf8');
  } catch {
    return undefined;
  }
}

try {
  const gen = spawnSync('npx', ['--no-install', 'openapi-ts'], {
    cwd: frontend,
    env: { ...process.env, OPENAPI_TS_OUTPUT: fresh },
    encoding: 'utf8',
  });
  if (gen.status !== 0) {
    console.error(`check-client: generating the client failed:\n${gen.stdout}\n${gen.stderr}`);
    process.exit(1);
  }
  let existing: string[] = [];
  try {
    existing = listFiles(committed);
  } catch {
    // no src/client at all: every generated file counts as missing
  }
  const files = [...new Set([...existing, ...listFiles(fresh)])].sort();
  const stale = files.filter((f) => read(committed, f) !== read(fresh, f));
  if (stale.length > 0) {
    console.error(
      [
        'check-client: frontend/src/client is out of date with frontend/openapi.json.',
        ...stale.map((f) => `  differs: src/client/${f}`),
        'Regenerate it with `npm run generate-client` (after `npm run openapi -w backend` if the API changed) and commit the result.',
      ].join('\n'),
    );
    process.exit(1);
  }
  console.log(`check-client: src/client is up to date (${files.length} files).`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
