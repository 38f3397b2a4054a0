import { describe, expect, it } from 'vitest';
import { initialFiles, type Manifest, onDemandFiles, routeFiles, staticFiles } from './bundle-manifest.ts';

// A manifest shaped like Vite's: an entry importing a shared chunk, a split route piece that imports
// the shared chunk and its own, and a chart only imported dynamically.
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_shared.js'],
    dynamicImports: ['src/routes/job.tsx?tsr-split=component'],
    css: ['assets/index.css'],
  },
  '_shared.js': { file: 'assets/shared.js', imports: ['index.html'] },
  'src/routes/job.tsx?tsr-split=component': {
    file: 'assets/job.js',
    src: 'src/routes/job.tsx?tsr-split=component',
    imports: ['index.html', '_shared.js', '_table.js'],
    dynamicImports: ['src/Chart.tsx'],
  },
  '_table.js': { file: 'assets/table.js', css: ['assets/table.css'] },
  'src/Chart.tsx': { file: 'assets/chart.js', src: 'src/Chart.tsx', imports: ['_table.js', '_reader.js'] },
  '_reader.js': { file: 'assets/reader.js', assets: ['assets/reader.wasm'] },
};

describe('bundle manifest walk', () => {
  it('counts the entry, its static imports and their CSS as the initial load, never dynamic imports', () => {
    expect([...initialFiles(manifest)].sort()).toEqual(['assets/index.css', 'assets/index.js', 'assets/shared.js']);
  });

  it('gives a route its split chunks and their imports, less what the initial load fetched', () => {
    const initial = initialFiles(manifest);
    expect([...routeFiles(manifest, 'src/routes/job.tsx', initial)].sort()).toEqual([
      'assets/job.js',
      'assets/table.css',
      'assets/table.js',
    ]);
  });

  it('gives a dynamically imported module its chunk, imports and the files it fetches by URL, less what is loaded', () => {
    const loaded = new Set([...initialFiles(manifest), ...routeFiles(manifest, 'src/routes/job.tsx', initialFiles(manifest))]);
    expect([...onDemandFiles(manifest, 'src/Chart.tsx', loaded)].sort()).toEqual([
      'assets/chart.js',
      'assets/reader.js',
      'assets/reader.wasm',
    ]);
    // A route's static load never includes an asset fetched by URL.
    expect(staticFiles(manifest, ['src/Chart.tsx']).has('assets/reader.wasm')).toBe(false);
  });

  it('follows import cycles once', () => {
    expect(staticFiles(manifest, ['_shared.js']).size).toBe(3);
  });

  it('refuses a route with no chunk, and a manifest naming a key it lacks', () => {
    expect(() => routeFiles(manifest, 'src/routes/none.tsx', new Set())).toThrow(/no chunk/);
    expect(() => staticFiles({ a: { file: 'a.js', imports: ['b'] } }, ['a'])).toThrow(/no entry for it/);
  });
});
