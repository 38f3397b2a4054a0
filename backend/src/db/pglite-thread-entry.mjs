// Worker-thread entry for pglite-thread.ts: threads do not inherit the TypeScript loader, so register
// it here before loading the TypeScript thread body. The build emits the compiled body under this name.
import { register } from 'tsx/esm/api';

register();
await import('./pglite-thread-body.ts');
