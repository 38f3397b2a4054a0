// Files under DATA_DIR (the embedded database, the generated secret key, the email outbox with its
// password-reset links) are the service's alone: its folders are made, or tightened, to owner-only.
import { chmodSync, mkdirSync } from 'node:fs';

const OWNER_ONLY = 0o700;

/** Makes `dir` (and missing parents) readable by the service's user only; tightens one made before. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY });
  chmodSync(dir, OWNER_ONLY);
}
