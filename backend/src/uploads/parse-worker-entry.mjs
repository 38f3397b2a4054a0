// Worker-thread entry for parse-off-thread.ts: threads do not inherit the TypeScript loader,
// so register it here before loading the TypeScript worker body.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
