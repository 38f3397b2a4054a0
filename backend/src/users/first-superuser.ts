// The first superuser: from FIRST_SUPERUSER / FIRST_SUPERUSER_PASSWORD, or a generated password
// shown once at start (only its argon2id hash is stored).
import { randomBytes } from 'node:crypto';
import { EmailTakenError, type UsersRepository } from './repository.ts';

export async function ensureFirstSuperuser(
  users: UsersRepository,
  email: string,
  password: string | undefined,
): Promise<{ created: boolean; email: string; generatedPassword?: string }> {
  if (await users.byEmail(email)) return { created: false, email };
  const initialPassword = password || randomBytes(12).toString('base64url');
  const generatedPassword = password ? undefined : initialPassword;
  try {
    await users.create({ email, password: initialPassword, full_name: 'Administrator', is_superuser: true, is_active: true });
  } catch (err) {
    // API replicas starting together on a fresh database: another one created it a moment ago.
    if (err instanceof EmailTakenError) return { created: false, email };
    throw err;
  }
  return { created: true, email, generatedPassword };
}
