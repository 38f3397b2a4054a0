// Writes dist/sw.js, the scan page's service worker (src/sw/sw.js), with the list of every built
// file to keep (the app shell, the /scan chunks and the decoder's .wasm) and a version named by
// that list, so a new build replaces the old cache. Hand-made rather than vite-plugin-pwa: the
// worker is ~80 lines, and Workbox's build tooling would add far more than it (issue 32).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export function scanServiceWorker(): Plugin {
  return {
    name: 'scan-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((f) => !f.startsWith('.vite/') && !f.endsWith('.map'))
        .map((f) => `/${f}`)
        .sort();
      const keep = ['/', '/manifest.webmanifest', '/icon.svg', ...files.filter((f) => f !== '/index.html')];
      const version = createHash('sha256').update(keep.join('\n')).digest('hex').slice(0, 12);
      const template = readFileSync(path.resolve(import.meta.dirname, '../src/sw/sw.js'), 'utf8');
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: template.replace('self.__PRECACHE__', JSON.stringify(keep)).replace('self.__VERSION__', JSON.stringify(version)),
      });
    },
  };
}
