// Route files are thin shells: each declares its route (path, params, search validation, guards)
// and renders one component from components/, where the page's logic lives.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROUTES = fileURLToPath(new URL('./', import.meta.url));

function routeFiles(dir = ROUTES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** What a shell should not hold: functions of its own, hooks besides its Route's, markup beyond one component. */
function logicIn(text: string): string[] {
  const found = [
    ...[...text.matchAll(/\bfunction\s+\w+/g)].map((m) => m[0]),
    ...[...text.matchAll(/(?<!Route\.)\buse[A-Z]\w*\(/g)].map((m) => m[0]),
    ...[...text.matchAll(/<([A-Z]\w*)/g)].map((m) => m[1] ?? ''),
  ];
  const components = found.filter((f) => !f.startsWith('function') && !f.startsWith('use'));
  return [...found.filter((f) => f.startsWith('function') || f.startsWith('use')), ...(components.length > 1 ? components : [])];
}

describe('route files', () => {
  const files = routeFiles();

  it('are found', () => {
    expect(files.length).toBeGreaterThan(15);
  });

  it('only declare the route and render one component', () => {
    const offending = files.flatMap((f) => logicIn(readFileSync(f, 'utf8')).map((what) => `${path.relative(ROUTES, f)}: ${what}`));
    expect(offending).toEqual([]);
  });

  it('tell a page written in its route file', () => {
    expect(logicIn('function Home() { const { data } = useCurrentUser(); return <Stack><Title /></Stack>; }')).toEqual([
      'function Home',
      'useCurrentUser(',
      'Stack',
      'Title',
    ]);
    expect(logicIn('component: () => <JobsPage search={Route.useSearch()} />')).toEqual([]);
  });
});
