// Users: self-service under /users/me, management for superusers.
import { z } from 'zod';
import { auditUser } from './audit.ts';
import type { App, AppContext } from '../core/context.ts';
import type { Db } from '../db/client.ts';
import { HttpError, forbidden, notFound, tooManyRequests } from '../lib/http-errors.ts';
import { verifyPassword } from '../core/security/passwords.ts';
import { currentUser } from './current-user.ts';
import { AttemptLimiter } from '../core/security/attempt-limiter.ts';
import { passwordCheckPolicy, signupPolicy } from '../core/security/throttles.ts';
import { HttpErrorBody, Message, Paging } from '../lib/api-schemas.ts';
import { EMAIL_TAKEN, EmailTakenError, createUser, deleteUser, listUsers, updateUser, userById } from './repository.ts';
import {
  UpdatePassword,
  UserCreate,
  UserPublic,
  UserRegister,
  UserUpdate,
  UserUpdateMe,
  UsersPublic,
  toPublic,
  type UserRow,
} from './schemas.ts';

const UserIdParam = z.object({ user_id: z.string().uuid('Invalid user id') });
const tags = ['users'];
const SELF_DELETE = 'Super users are not allowed to delete themselves';
const SELF_DEMOTE = 'Super users are not allowed to remove their own superuser rights or deactivate themselves';

/** Creating a user with a taken email answers 400 with this text (the API template's contract). */
async function createOr400<T>(create: () => Promise<T>, detail: string): Promise<T> {
  try {
    return await create();
  } catch (err) {
    if (err instanceof EmailTakenError) throw new HttpError(400, detail);
    throw err;
  }
}

/** The names of the fields a patch sets (never their values). */
const fieldsSet = (patch: Record<string, unknown>) => ({
  fields: Object.keys(patch)
    .filter((k) => patch[k] !== undefined)
    .sort(),
});
const roleOf = (u: UserRow) => ({ is_superuser: u.is_superuser, is_active: u.is_active, decisions_only: u.decisions_only });

/** The password was changed: a fresh token for this session, since older ones no longer work. */
const PasswordChanged = Message.extend({ access_token: z.string(), token_type: z.string() }).meta({ id: 'PasswordChanged' });

export function userRoutes(app: App, ctx: AppContext): void {
  const limiter = new AttemptLimiter(ctx.db, app.log);
  const su = { config: { access: 'superuser' as const } };

  app.get('/users/', {
    schema: { operationId: 'readUsers', tags, querystring: Paging, response: { 200: UsersPublic } },
    ...su,
    handler: async (req) => {
      const { data, count } = await listUsers(ctx.db, req.query);
      return { data: data.map(toPublic), count };
    },
  });

  app.post('/users/', {
    schema: { operationId: 'createUser', tags, body: UserCreate, response: { 200: UserPublic, 400: HttpErrorBody } },
    ...su,
    handler: async (req) =>
      toPublic(await createOr400(() => createUser(ctx.db, req.body, auditUser(req, 'user.created', roleOf)), EMAIL_TAKEN)),
  });

  app.get('/users/me', {
    schema: { operationId: 'readUserMe', tags, response: { 200: UserPublic } },
    handler: async (req) => toPublic(currentUser(req)),
  });

  app.patch('/users/me', {
    schema: { operationId: 'updateUserMe', tags, body: UserUpdateMe, response: { 200: UserPublic, 409: HttpErrorBody } },
    handler: async (req) =>
      toPublic(
        await updateUser(
          ctx.db,
          currentUser(req).id,
          req.body,
          auditUser(req, 'user.updated', () => fieldsSet(req.body)),
        ),
      ),
  });

  app.patch('/users/me/password', {
    schema: {
      operationId: 'updatePasswordMe',
      tags,
      body: UpdatePassword,
      response: { 200: PasswordChanged, 400: HttpErrorBody, 429: HttpErrorBody },
    },
    handler: async (req) => {
      const user = currentUser(req);
      // Guessing the current password through a stolen session is guessing a password: it is
      // slowed like a login, and before the hash is checked (argon2 is the costly part).
      const key = `password-check:${user.id}`;
      const wait = await limiter.take(key, passwordCheckPolicy(ctx.config));
      if (wait > 0) throw tooManyRequests('Too many wrong passwords. Please wait a moment and try again.', wait);
      if (!(await verifyPassword(user.hashed_password, req.body.current_password))) throw new HttpError(400, 'Incorrect password');
      await limiter.reset(key);
      if (req.body.current_password === req.body.new_password) {
        throw new HttpError(400, 'New password cannot be the same as the current one');
      }
      const updated = await updateUser(ctx.db, user.id, { password: req.body.new_password }, auditUser(req, 'auth.password_changed'));
      return {
        message: 'Password updated successfully',
        access_token: await ctx.tokens.createAccessToken(updated),
        token_type: 'bearer',
      };
    },
  });

  app.delete('/users/me', {
    schema: { operationId: 'deleteUserMe', tags, response: { 200: Message, 403: HttpErrorBody } },
    handler: async (req) => {
      const user = currentUser(req);
      if (user.is_superuser) throw forbidden(SELF_DELETE);
      await deleteUser(
        ctx.db,
        user.id,
        auditUser(req, 'user.deleted', () => ({ self: true })),
      );
      return { message: 'User deleted successfully' };
    },
  });

  app.post('/users/signup', {
    schema: {
      operationId: 'registerUser',
      tags,
      body: UserRegister,
      response: { 200: UserPublic, 400: HttpErrorBody, 429: HttpErrorBody },
    },
    handler: async (req) => {
      // Every attempt counts (each one hashes a password): a script cannot mint accounts, each with
      // its own allowances; the same answer whatever the email, so nothing is told about accounts.
      const wait = await limiter.take(`signup:${req.ip}`, signupPolicy(ctx.config));
      if (wait > 0) throw tooManyRequests('Too many sign-ups from this address. Please try again later.', wait);
      return toPublic(
        await createOr400(
          () =>
            createUser(
              ctx.db,
              { ...req.body, is_superuser: false, is_active: true },
              // Nobody is signed in yet: the new user acts on themself.
              auditUser(
                req,
                'user.created',
                () => ({ signup: true }),
                (u) => ({ id: u.id, email: u.email }),
              ),
            ),
          'The user with this email already exists in the system',
        ),
      );
    },
  });

  app.get('/users/:user_id', {
    schema: { operationId: 'readUserById', tags, params: UserIdParam, response: { 200: UserPublic, 404: HttpErrorBody } },
    handler: async (req) => {
      const user = currentUser(req);
      if (req.params.user_id === user.id) return toPublic(user);
      if (!user.is_superuser) throw forbidden();
      return toPublic(await findUser(ctx.db, req.params.user_id));
    },
  });

  app.patch('/users/:user_id', {
    schema: {
      operationId: 'updateUser',
      tags,
      params: UserIdParam,
      body: UserUpdate,
      response: { 200: UserPublic, 403: HttpErrorBody, 404: HttpErrorBody, 409: HttpErrorBody },
    },
    ...su,
    handler: async (req) => {
      // The last superuser could otherwise lock everyone out of user management.
      if (req.params.user_id === currentUser(req).id && (req.body.is_superuser === false || req.body.is_active === false))
        throw forbidden(SELF_DEMOTE);
      await findUser(ctx.db, req.params.user_id);
      return toPublic(
        await updateUser(
          ctx.db,
          req.params.user_id,
          req.body,
          auditUser(req, 'user.updated', (u) => ({ ...fieldsSet(req.body), ...roleOf(u) })),
        ),
      );
    },
  });

  app.delete('/users/:user_id', {
    schema: { operationId: 'deleteUser', tags, params: UserIdParam, response: { 200: Message, 403: HttpErrorBody, 404: HttpErrorBody } },
    ...su,
    handler: async (req) => {
      if (req.params.user_id === currentUser(req).id) throw forbidden(SELF_DELETE);
      await findUser(ctx.db, req.params.user_id);
      await deleteUser(ctx.db, req.params.user_id, auditUser(req, 'user.deleted'));
      return { message: 'User deleted successfully' };
    },
  });
}

async function findUser(db: Db, id: string) {
  const user = await userById(db, id);
  if (!user) throw notFound('User', 'The user with this id does not exist in the system');
  return user;
}
