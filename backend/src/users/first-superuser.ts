// The first superuser: from FIRST_SUPERUSER / FIRST_SUPERUSER_PASSWORD, or a generated password
// shown once at start (only its argon2id hash is stored).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { EmailTakenError, createUser, userByEmail } from './repository.ts';

export async function ensureFirstSuperuser(
  db: Db,
  email: string,
  password: string | undefined,
): Promise<{ created: boolean; email: string; generatedPassword?: string }> {
  if (await userByEmail(db, email)) return { created: false, email };
  const initialPassword = password || randomBytes(12).toString('base64url');
  const generatedPassword = password ? undefined : initialPassword;
  try {
    await createUser(db, { email, password: initialPassword, full_name: 'Administrator', is_superuser: true, is_active: true });
  } catch (err) {
    // API replicas starting together on a fresh database: another one created it a moment ago.
    if (err instanceof EmailTakenError) return { created: false, email };
    throw err;
  }
  return { created: true, email, generatedPassword };
}
