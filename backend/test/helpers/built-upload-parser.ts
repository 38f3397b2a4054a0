// Setup file of the integration tests: uploads are parsed on a thread started from the run's backend
// build (global-setup.ts), as in production, instead of from src/, where each thread loads tsx and
// compiles the parser again (~0.7 s a thread, against ~0.15 s; the suite uploads a few hundred files).
// The thread body is the same code; the tsx entry keeps its own tests (src/uploads/parse-off-thread.test.ts,
// parse-memory.test.ts, in the unit project).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject, vi } from 'vitest';

vi.mock(import('../../src/uploads/parse-off-thread.ts'), async (importOriginal) => {
  const real = await importOriginal();
  const entry = pathToFileURL(path.join(inject('backendBuild'), 'parse-worker-entry.mjs'));
  return {
    ...real,
    parseUploadOffThread: (...[data, filename, limits, maxMemoryMb]: Parameters<typeof real.parseUploadOffThread>) =>
      real.parseUploadOffThread(data, filename, limits, maxMemoryMb, entry),
  };
});
