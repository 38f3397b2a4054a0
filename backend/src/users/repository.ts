// Users in the database. Emails are unique without regard to case (unique index on lower(email)).
// Writes take an optional `step` (the route's audit event) run in the same transaction as the write.
import { must } from '@app/domain/must';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Page } from '../db/page.ts';
import type { TxStep } from '../db/tx-step.ts';
import { users } from '../db/schema.ts';
import { hashPassword } from '../core/security/passwords.ts';
import { HttpError } from '../lib/http-errors.ts';
import type { UserRow } from './schemas.ts';
import { postgresErrorCode } from '../db/postgres-error.ts';

export const EMAIL_TAKEN = 'The user with this email already exists in the system.';

/** A user with this email exists already (409 by default; creating answers 400, as the template does). */
export class EmailTakenError extends HttpError {
  constructor() {
    super(409, EMAIL_TAKEN);
  }
}

export async function userById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function userByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return row;
}

export async function listUsers(db: Db, page: Page): Promise<{ data: UserRow[]; count: number }> {
  const [data, counted] = await Promise.all([
    db.select().from(users).orderBy(desc(users.created_at), users.id).offset(page.skip).limit(page.limit),
    db.select({ n: count() }).from(users),
  ]);
  return { data, count: Number(counted[0]?.n ?? 0) };
}

export async function createUser(
  db: Db,
  input: {
    email: string;
    password: string;
    full_name?: string | null;
    is_superuser?: boolean;
    is_active?: boolean;
    decisions_only?: boolean;
  },
  step?: TxStep<UserRow>,
): Promise<UserRow> {
  await assertEmailFree(db, input.email);
  const hashed_password = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          email: input.email,
          full_name: input.full_name ?? null,
          hashed_password,
          is_superuser: input.is_superuser ?? false,
          is_active: input.is_active ?? true,
          decisions_only: input.decisions_only ?? false,
        })
        .returning();
      const created = must(row, 'the written user comes back');
      await step?.(tx, created);
      return created;
    });
  } catch (err) {
    throw uniqueViolation(err) ? new EmailTakenError() : err;
  }
}

export async function updateUser(
  db: Db,
  id: string,
  patch: {
    email?: string;
    password?: string;
    full_name?: string | null;
    is_superuser?: boolean;
    is_active?: boolean;
    decisions_only?: boolean;
  },
  step?: TxStep<UserRow>,
): Promise<UserRow> {
  const { password, ...rest } = patch;
  if (rest.email !== undefined) await assertEmailFree(db, rest.email, id);
  const values: Partial<typeof users.$inferInsert> = { ...rest };
  // Deactivation ends every session: reactivating later does not bring old tokens back.
  if (rest.is_active === false) values.session_stamp = new Date();
  if (password !== undefined) {
    values.hashed_password = await hashPassword(password);
    values.password_changed_at = new Date();
  }
  if (Object.keys(values).length === 0) return must(await userById(db, id), 'the user being updated exists');
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.update(users).set(values).where(eq(users.id, id)).returning();
      const updated = must(row, 'the written user comes back');
      await step?.(tx, updated);
      return updated;
    });
  } catch (err) {
    throw uniqueViolation(err) ? new EmailTakenError() : err;
  }
}

/**
 * Sets a new password only while the password is still the one stamped `stampMs` (a reset link's
 * stamp). One UPDATE decides, so of parallel resets with the same link exactly one succeeds.
 */
export async function setPasswordIfUnchanged(
  db: Db,
  id: string,
  password: string,
  stampMs: number,
  step?: TxStep<UserRow>,
): Promise<boolean> {
  const hashed_password = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ hashed_password, password_changed_at: new Date() })
      .where(
        and(
          eq(users.id, id),
          sql`date_trunc('milliseconds', ${users.password_changed_at}) = ${new Date(stampMs).toISOString()}::timestamptz`,
        ),
      )
      .returning();
    if (!row) return false;
    await step?.(tx, row);
    return true;
  });
}

/** Deleting a user deletes their items and jobs too (ON DELETE CASCADE). */
export async function deleteUser(db: Db, id: string, step?: TxStep<UserRow>): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(users).where(eq(users.id, id)).returning();
    if (row) await step?.(tx, row);
  });
}

async function assertEmailFree(db: Db, email: string, exceptId?: string): Promise<void> {
  const existing = await userByEmail(db, email);
  if (existing && existing.id !== exceptId) throw new EmailTakenError();
}

function uniqueViolation(err: unknown): boolean {
  return postgresErrorCode(err) === '23505';
}
