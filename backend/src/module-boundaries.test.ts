// The shape of backend/src: core depends on no feature, product code never imports test code, and
// no two folders import each other (directly or round a loop). Loops between files are Biome's
// noImportCycles rule (biome.jsonc), so `npm run lint` finds them in all three packages.
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

/** Depth-first search; a node met again while still on the path closes a loop, reported as "a → b → a". */
function loops(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const visit = (node: string, trail: string[]) => {
    if (trail.includes(node)) return void found.push([...trail.slice(trail.indexOf(node)), node].join(' → '));
    if (done.has(node)) return;
    for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
    done.add(node);
  };
  for (const node of edges.keys()) visit(node, []);
  return found;
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
    expect(loops(edges)).toEqual([]);
  });

  it('finds a loop when there is one', () => {
    const edges = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
    ]);
    expect(loops(edges)).toEqual(['a.ts → b.ts → c.ts → a.ts']);
  });
});
