// `npm run build -w backend`: bundles the API, worker and sandbox processes into backend/dist, so
// production runs plain JavaScript on Node (dev keeps tsx). esbuild rather than tsc emit because the
// workspace package @app/domain exports TypeScript sources, which Node will not load from a package:
// it is bundled in, while every npm package stays external and is loaded from node_modules as usual.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';

const backend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(backend, 'dist');

const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(b) {
    // Bare specifiers except our own workspaces (@app/*); relative and absolute paths are bundled.
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@app/') ? undefined : { path: args.path, external: true }));
  },
};

const common: BuildOptions = {
  absWorkingDir: backend,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  outdir: dist,
  plugins: [npmPackagesExternal],
  logLevel: 'warning',
};

rmSync(dist, { recursive: true, force: true });
await Promise.all([
  // One self-contained file per process, all in dist/: code that finds files from import.meta.url
  // (migrations, the frontend build, the parsing thread) sees dist/ as its folder.
  build({
    ...common,
    entryPoints: [
      { in: 'src/main.ts', out: 'main' },
      { in: 'src/worker-main.ts', out: 'worker' },
      { in: 'src/sandbox-main.ts', out: 'sandbox' },
    ],
  }),
  // The upload-parsing thread: parse-off-thread.ts starts `./parse-worker-entry.mjs` beside itself,
  // which in src/ registers tsx and here is the compiled thread body.
  build({
    ...common,
    entryPoints: [{ in: 'src/uploads/parse-worker.ts', out: 'parse-worker-entry' }],
    outExtension: { '.js': '.mjs' },
  }),
]);
// db/client.ts reads migrations from `migrations/` beside itself.
cpSync(path.join(backend, 'src/db/migrations'), path.join(dist, 'migrations'), { recursive: true });
console.log(`backend built into ${path.relative(process.cwd(), dist) || '.'}`);
