// Bundles the API, worker and sandbox processes into one folder, so production runs plain JavaScript
// on Node (dev keeps tsx). esbuild rather than tsc emit because the workspace package @app/domain
// exports TypeScript sources, which Node will not load from a package: it is bundled in, while every
// npm package stays external and is loaded from node_modules as usual. `npm run build -w backend`
// writes backend/dist; the multi-process test builds into a folder of its own the same way.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';

export const BACKEND_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The files a build emits that processes are started from (Dockerfile, compose.yaml, npm scripts). */
export const PROCESS_ENTRIES = { api: 'main.js', worker: 'worker.js', sandbox: 'sandbox.js' } as const;

const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(b) {
    // Bare specifiers except our own workspaces (@app/*); relative and absolute paths are bundled.
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@app/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Builds into `dist`, which must lie inside the repository: the bundles find their npm packages by
 * walking up to node_modules.
 */
export async function bundleBackend(dist: string): Promise<void> {
  const common: BuildOptions = {
    absWorkingDir: BACKEND_DIR,
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
        { in: 'src/main.ts', out: path.parse(PROCESS_ENTRIES.api).name },
        { in: 'src/worker-main.ts', out: path.parse(PROCESS_ENTRIES.worker).name },
        { in: 'src/sandbox-main.ts', out: path.parse(PROCESS_ENTRIES.sandbox).name },
      ],
    }),
    // The upload-parsing thread: parse-off-thread.ts starts `./parse-worker-entry.mjs` beside itself,
    // which in src/ registers tsx and here is the compiled thread body.
    build({
      ...common,
      entryPoints: [
        { in: 'src/uploads/parse-worker.ts', out: 'parse-worker-entry' },
        // The embedded database's thread: db/pglite-thread.ts starts `./pglite-thread-entry.mjs`.
        { in: 'src/db/pglite-thread-body.ts', out: 'pglite-thread-entry' },
      ],
      outExtension: { '.js': '.mjs' },
    }),
  ]);
  // db/client.ts reads migrations from `migrations/` beside itself.
  cpSync(path.join(BACKEND_DIR, 'src/db/migrations'), path.join(dist, 'migrations'), { recursive: true });
}
