// Request/response shapes of the users API; registered ids become OpenAPI component names.
import { z } from 'zod';
import { createSelectSchema } from 'drizzle-zod';
import { users } from '../db/schema.ts';

export const EmailSchema = z.string().trim().max(255).email('Invalid email address');
export const PasswordSchema = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Password must be at most 128 characters');
const FullName = z.string().trim().max(255).nullish();

/** What the API shows of a user: columns of the users table (drizzle-zod), never the password hash. */
export const UserPublic = createSelectSchema(users)
  .pick({ id: true, email: true, full_name: true, is_active: true, is_superuser: true, decisions_only: true })
  .meta({ id: 'UserPublic' });

export const UsersPublic = z.object({ data: z.array(UserPublic), count: z.number().int() }).meta({ id: 'UsersPublic' });

export const UserCreate = z
  .object({
    email: EmailSchema,
    password: PasswordSchema,
    full_name: FullName,
    is_superuser: z.boolean().default(false),
    is_active: z.boolean().default(true),
    /** Sees verdicts on the scan page, never a price, offer, profit or marketplace answer. */
    decisions_only: z.boolean().default(false),
  })
  .meta({ id: 'UserCreate' });

export const UserRegister = z.object({ email: EmailSchema, password: PasswordSchema, full_name: FullName }).meta({ id: 'UserRegister' });

export const UserUpdate = z
  .object({
    email: EmailSchema.optional(),
    password: PasswordSchema.optional(),
    full_name: FullName,
    is_superuser: z.boolean().optional(),
    is_active: z.boolean().optional(),
    decisions_only: z.boolean().optional(),
  })
  .meta({ id: 'UserUpdate' });

export const UserUpdateMe = z.object({ email: EmailSchema.optional(), full_name: FullName }).meta({ id: 'UserUpdateMe' });

export const UpdatePassword = z
  .object({ current_password: z.string().min(1).max(128), new_password: PasswordSchema })
  .meta({ id: 'UpdatePassword' });

/** A user as stored. */
export type UserRow = typeof users.$inferSelect;

export function toPublic(u: UserRow): z.infer<typeof UserPublic> {
  return {
    id: u.id,
    email: u.email,
    full_name: u.full_name,
    is_active: u.is_active,
    is_superuser: u.is_superuser,
    decisions_only: u.decisions_only,
  };
}
