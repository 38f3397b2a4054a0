// Login, token check, password recovery and reset.
import { must } from '@app/domain/must';
import { z } from 'zod';
import type { App, AppContext } from '../core/context.ts';
import { HttpError, notFound, tooManyRequests } from '../lib/http-errors.ts';
import { HttpErrorBody, Message } from '../lib/api-schemas.ts';
import { EmailSchema, PasswordSchema, UserPublic, toPublic } from '../users/schemas.ts';
import { dummyPasswordHash, verifyPassword } from '../core/security/passwords.ts';
import { currentUser } from '../users/current-user.ts';
import { setPasswordIfUnchanged, userByEmail } from '../users/repository.ts';
import { resetPasswordEmail } from '../email/templates.ts';
import { requestActor, writeAuditEvent } from '../audit/record.ts';
import { auditUser } from '../users/audit.ts';
import { AttemptLimiter, type LimitPolicy } from '../core/security/attempt-limiter.ts';
import { Sessions } from './sessions.ts';
import { DeviceCookies } from './device-cookie.ts';
import { emailTried } from './login-audit.ts';
import { LoginThrottle, type LoginAttempt } from './login-throttle.ts';

const Token = z.object({ access_token: z.string(), token_type: z.string() }).meta({ id: 'Token' });
const LoginForm = z
  .object({
    grant_type: z.string().optional(),
    username: z.string().min(1, 'Username is required').max(255),
    password: z.string().min(1, 'Password is required').max(128),
    scope: z.string().optional(),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
  })
  .meta({ id: 'Body_login_access_token' });
const NewPassword = z.object({ token: z.string().min(1).max(2048), new_password: PasswordSchema }).meta({ id: 'NewPassword' });
const EmailParam = z.object({ email: z.string().max(255) });

export const RECOVERY_MESSAGE = 'If that email is registered, a password recovery link has been sent to it.';

export function authRoutes(app: App, ctx: AppContext): void {
  const sessions = new Sessions(ctx.db);
  // Login and recovery-email limits, counted in the database (shared by every API process).
  const limiter = new AttemptLimiter(ctx.db, app.log);
  const c = ctx.config;
  const throttle = new LoginThrottle(limiter, c);
  const devices = new DeviceCookies(c.SECRET_KEY, c.LOGIN_DEVICE_DAYS, c.FRONTEND_HOST.startsWith('https:'));
  const recoveryPolicy = (max: number): LimitPolicy => ({ max, windowSeconds: c.RECOVERY_WINDOW_SECONDS, after: 'window' });

  app.post('/login/access-token', {
    schema: {
      operationId: 'loginAccessToken',
      tags: ['login'],
      summary: 'OAuth2 compatible token login',
      consumes: ['application/x-www-form-urlencoded'],
      body: LoginForm,
      response: { 200: Token, 400: HttpErrorBody, 429: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const email = req.body.username.trim().toLowerCase();
      // A browser's device cookie counts only once it is bound to this account: the account is read
      // first then (only a cookie signed here, i.e. a browser that once signed in, costs that read).
      const cookie = devices.read(req);
      const early = cookie ? { user: await userByEmail(ctx.db, email) } : undefined;
      const attempt: LoginAttempt = { account: email, address: req.ip, device: devices.deviceOf(cookie, early?.user) };
      const wait = await throttle.take(attempt);
      if (wait > 0) throw tooManyRequests('Too many login attempts. Please wait a moment and try again.', wait);
      const user = early ? early.user : await userByEmail(ctx.db, email);
      // Verify against a dummy hash when the email is unknown: same work, same answer.
      const ok = await verifyPassword(user?.hashed_password ?? (await dummyPasswordHash()), req.body.password);
      // Throttled attempts (above) are not written: they cost the guesser nothing and would fill the trail.
      const failed = !user ? 'unknown_email' : !ok ? 'wrong_password' : !user.is_active ? 'inactive_user' : undefined;
      if (failed) {
        // What was typed is kept only when it looks like an email and is not the password typed twice.
        const tried = emailTried(req.body.username, req.body.password);
        const details = tried === null ? { reason: failed, email_withheld: true } : { email: tried, reason: failed };
        const target = { type: 'user' as const, id: user?.id ?? null, label: tried };
        await writeAuditEvent(ctx.db, requestActor(req), { action: 'auth.login_failed', target, details });
        throw new HttpError(400, failed === 'inactive_user' ? 'Inactive user' : 'Incorrect email or password');
      }
      const signedIn = must(user, 'a login that did not fail has its user');
      await writeAuditEvent(ctx.db, requestActor(req), {
        action: 'auth.login_succeeded',
        target: { type: 'user', id: signedIn.id, label: signedIn.email },
        actor: { id: signedIn.id, email: signedIn.email },
      });
      await throttle.succeeded(attempt);
      devices.issue(req, reply, signedIn);
      return { access_token: await ctx.tokens.createAccessToken(signedIn), token_type: 'bearer' };
    },
  });

  app.post('/login/test-token', {
    schema: { operationId: 'testToken', tags: ['login'], response: { 200: UserPublic } },
    handler: async (req) => toPublic(currentUser(req)),
  });

  // Signing out ends the token on the server too: a copy of it (a shared machine, a leaked log)
  // stops working at once rather than at its expiry.
  app.post('/login/sign-out', {
    schema: { operationId: 'signOut', tags: ['login'], summary: 'End this session (this token)', response: { 200: Message } },
    handler: async (req) => {
      const token = must(req.accessToken, 'the guard accepted a token');
      await sessions.revoke(token.id, token.expiresAt);
      return { message: 'Signed out' };
    },
  });

  app.post('/login/sign-out-everywhere', {
    schema: {
      operationId: 'signOutEverywhere',
      tags: ['login'],
      summary: "End every session of the current user (every browser's token, this one included)",
      response: { 200: Message },
    },
    handler: async (req) => {
      await sessions.endAll(currentUser(req).id, auditUser(req, 'auth.signed_out_everywhere'));
      return { message: 'Signed out everywhere' };
    },
  });

  app.post('/password-recovery/:email', {
    schema: { operationId: 'recoverPassword', tags: ['login'], params: EmailParam, response: { 200: Message } },
    handler: async (req) => {
      // Same answer, and no waiting on the mail server, whether or not the email exists or a limit
      // was reached (a limit that answered differently would tell which addresses have accounts).
      const email = req.params.email.trim().toLowerCase();
      const send = async () => {
        if ((await limiter.take(`recovery-client:${req.ip}`, recoveryPolicy(c.RECOVERY_EMAILS_PER_CLIENT))) > 0) return;
        if ((await limiter.take(`recovery:${email}`, recoveryPolicy(c.RECOVERY_EMAILS_PER_ADDRESS))) > 0) return;
        await sendRecoveryEmail(ctx, email);
      };
      void send().catch((err) => req.log.error({ err }, 'password recovery email failed'));
      return { message: RECOVERY_MESSAGE };
    },
  });

  app.post('/reset-password/', {
    schema: { operationId: 'resetPassword', tags: ['login'], body: NewPassword, response: { 200: Message, 400: HttpErrorBody } },
    handler: async (req) => {
      const claims = await ctx.tokens.verifyResetToken(req.body.token);
      const user = claims ? await userByEmail(ctx.db, claims.email) : undefined;
      if (!claims || !user || user.password_changed_at.getTime() !== claims.passwordStamp) throw new HttpError(400, 'Invalid token');
      if (!user.is_active) throw new HttpError(400, 'Inactive user');
      // Only if the password is still the one the link was made for: of parallel uses, one wins.
      // The link's owner acts (nobody is signed in); the link itself is never recorded.
      const audit = auditUser(req, 'auth.password_reset', undefined, (u) => ({ id: u.id, email: u.email }));
      if (!(await setPasswordIfUnchanged(ctx.db, user.id, req.body.new_password, claims.passwordStamp, audit)))
        throw new HttpError(400, 'Invalid token');
      return { message: 'Password updated successfully' };
    },
  });

  app.post('/password-recovery-html-content/:email', {
    schema: {
      operationId: 'recoverPasswordHtmlContent',
      tags: ['login'],
      params: EmailParam,
      response: { 200: z.string() },
    },
    config: { access: 'superuser' },
    handler: async (req, reply) => {
      const user = await userByEmail(ctx.db, req.params.email);
      if (!user) throw notFound('User', 'The user with this email does not exist in the system.');
      const email = await buildResetEmail(ctx, user.email, user.password_changed_at);
      return reply.type('text/html').header('subject', email.subject).send(email.html);
    },
  });
}

async function buildResetEmail(ctx: AppContext, email: string, stamp: Date) {
  const token = await ctx.tokens.createResetToken(email, stamp);
  const link = `${ctx.config.FRONTEND_HOST}/reset-password?token=${encodeURIComponent(token)}`;
  return resetPasswordEmail({ projectName: ctx.config.PROJECT_NAME, email, link, validHours: ctx.config.EMAIL_RESET_TOKEN_EXPIRE_HOURS });
}

async function sendRecoveryEmail(ctx: AppContext, rawEmail: string): Promise<void> {
  if (!EmailSchema.safeParse(rawEmail).success) return;
  const user = await userByEmail(ctx.db, rawEmail);
  if (!user?.is_active) return;
  await ctx.mailer.send(await buildResetEmail(ctx, user.email, user.password_changed_at));
}
