// The shape of backend/src: core depends on no feature, product code never imports test code, and
// no two folders import each other (directly or round a loop).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('./', import.meta.url));
const ROOT = '(src)'; // entry points and composition: main.ts, app.ts, environment.ts, …
/** Folders core may use besides itself: db/ is to move under core/ once the data-access rewrite lands. */
const CORE_MAY_USE = new Set(['core', 'db']);

interface Import {
  from: string;
  to: string;
}

function productFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return productFiles(full);
    return /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

function relativeImports(): Import[] {
  return productFiles().flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => ({
      from: path.relative(SRC, file),
      to: path.relative(SRC, path.resolve(path.dirname(file), m[1] ?? '')),
    })),
  );
}

const folderOf = (file: string): string => (file.includes(path.sep) ? (file.split(path.sep)[0] ?? ROOT) : ROOT);

describe('module boundaries', () => {
  const imports = relativeImports();

  it('reads a sensible number of imports', () => {
    expect(imports.length).toBeGreaterThan(150);
  });

  it('product code imports no test code', () => {
    const offending = imports.filter((i) => i.to.startsWith('..') || /test|fixture-server/.test(path.basename(i.to)));
    expect(offending).toEqual([]);
  });

  it('core depends on no feature', () => {
    const offending = imports.filter((i) => folderOf(i.from) === 'core' && !CORE_MAY_USE.has(folderOf(i.to)));
    expect(offending).toEqual([]);
  });

  it('no feature imports the entry points, and no folders import each other round a loop', () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of imports) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
    const intoRoot = imports.filter((i) => folderOf(i.to) === ROOT && !['scripts', ROOT].includes(folderOf(i.from)));
    expect(intoRoot).toEqual([]);
    // Depth-first search; a folder met again while still on the path closes a loop.
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (node: string, trail: string[]) => {
      if (trail.includes(node)) return void cycles.push([...trail.slice(trail.indexOf(node)), node].join(' → '));
      if (done.has(node)) return;
      for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
      done.add(node);
    };
    for (const node of edges.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});
