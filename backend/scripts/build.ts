// `npm run build -w backend`: bundles the API, worker and sandbox processes into backend/dist
// (scripts/bundle.ts says how and why).
import path from 'node:path';
import { BACKEND_DIR, bundleBackend } from './bundle.ts';

const dist = path.join(BACKEND_DIR, 'dist');
await bundleBackend(dist);
console.log(`backend built into ${path.relative(process.cwd(), dist) || '.'}`);
