// What a failed sign-in's audit event may say about what was typed (issue 29): people type their
// password into the username field, and the trail must never keep a password.
import { EmailSchema } from '../users/schemas.ts';

/**
 * The username as typed (trimmed, lowercased) when it has the shape of an email address and is not
 * what was typed as the password; otherwise null: it is then withheld from the trail.
 */
export function emailTried(username: string, password: string): string | null {
  const typed = username.trim().toLowerCase();
  if (!EmailSchema.safeParse(typed).success) return null;
  const same = username === password || typed === password.trim().toLowerCase();
  return same ? null : typed;
}
