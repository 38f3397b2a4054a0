// Watches (a book or a job, with conditions built from the rule builder's rows) and the
// notifications they leave. Everyone has only their own: superusers too, since a watch is a
// personal alert; someone else's watch answers 404. The email-stop link is public: the digest's
// readers click it from their mail, signed in or not, and it carries its own signature.
import { NOTIFICATIONS_PAGE_SIZE, normalizeWatchConditions, validateWatch, validateWatchConditions } from '@app/domain/watches';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../core/context.ts';
import { notifyUsers } from '../core/job-events.ts';
import { findVisibleJob } from '../jobs/repository.ts';
import { HttpErrorBody, Message } from '../lib/api-schemas.ts';
import { issuesToHttpError, notFound, validationError } from '../lib/http-errors.ts';
import { currentUser } from '../users/current-user.ts';
import { WatchEmailStopTokens } from './email-stop.ts';
import {
  createWatch,
  deleteWatch,
  listNotifications,
  listWatches,
  markRead,
  stopWatchEmail,
  unreadCount,
  updateWatch,
  type WatchRow,
} from './repository.ts';
import {
  EmailStopQuery,
  EmailStopped,
  MarkRead,
  NotificationsPublic,
  NotificationsQuery,
  UnreadCount,
  WatchCreate,
  WatchesPublic,
  WatchesQuery,
  WatchIdParam,
  WatchPublic,
  WatchUpdate,
} from './schemas.ts';

const tags = ['watches'];
export const WATCH_DELETED = 'Watch deleted successfully';
export const EMAIL_STOPPED = 'You will no longer get emails about this watch. Its alerts still show in the app.';
export const EMAIL_STOP_INVALID = 'This link is not valid: it may have been cut short, or the watch was deleted.';

const found = (w: WatchRow | undefined): WatchRow => {
  if (!w) throw notFound('Watch');
  return w;
};

const trimmedName = (name: string | null | undefined) => (name == null || name.trim() === '' ? null : name.trim());

export function watchRoutes(app: App, ctx: AppContext): void {
  const stopTokens = new WatchEmailStopTokens(ctx.config.SECRET_KEY);

  app.get('/watches', {
    schema: {
      operationId: 'readWatches',
      tags,
      summary: 'Your watches, newest first; of one book (`isbn`) or one job (`jobId`) when given',
      querystring: WatchesQuery,
      response: { 200: WatchesPublic },
    },
    handler: (req) => listWatches(ctx.db, currentUser(req), req.query),
  });

  app.post('/watches', {
    schema: {
      operationId: 'createWatch',
      tags,
      summary: 'Watch a book (`isbn`) or a job (`jobId`, one of yours): notified when a new answer makes the conditions true',
      body: WatchCreate,
      response: { 200: WatchPublic, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const user = currentUser(req);
      const { isbn, jobId, name, conditions, email } = req.body;
      if ((isbn === undefined) === (jobId === undefined))
        throw validationError(['body', 'isbn'], 'Give either isbn or jobId (one of them)');
      const issues = validateWatch({ name, conditions });
      if (issues.length) throw issuesToHttpError(['body'], issues);
      if (jobId !== undefined) await findVisibleJob(ctx.db, user, jobId);
      return createWatch(ctx.db, user, {
        isbn: isbn ?? null,
        jobId: jobId ?? null,
        name: trimmedName(name),
        conditions: normalizeWatchConditions(conditions),
        email,
      });
    },
  });

  app.patch('/watches/:id', {
    schema: {
      operationId: 'updateWatch',
      tags,
      summary: 'Change a watch’s name, conditions or email; new conditions arm it again',
      params: WatchIdParam,
      body: WatchUpdate,
      response: { 200: WatchPublic, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const { name, conditions, email } = req.body;
      const issues = [
        ...(name === undefined ? [] : validateWatch({ name, conditions: [] }).filter((i) => i.path[0] === 'name')),
        ...(conditions === undefined ? [] : validateWatchConditions(conditions)),
      ];
      if (issues.length) throw issuesToHttpError(['body'], issues);
      return found(
        await updateWatch(ctx.db, currentUser(req), req.params.id, {
          ...(name === undefined ? {} : { name: trimmedName(name) }),
          ...(conditions === undefined ? {} : { conditions: normalizeWatchConditions(conditions) }),
          ...(email === undefined ? {} : { email }),
        }),
      );
    },
  });

  app.delete('/watches/:id', {
    schema: {
      operationId: 'deleteWatch',
      tags,
      summary: 'Delete a watch (its notifications stay)',
      params: WatchIdParam,
      response: { 200: Message, 404: HttpErrorBody },
    },
    handler: async (req) => {
      if (!(await deleteWatch(ctx.db, currentUser(req), req.params.id))) throw notFound('Watch');
      return { message: WATCH_DELETED };
    },
  });

  app.get('/notifications', {
    schema: {
      operationId: 'readNotifications',
      tags,
      summary: `Your notifications, newest first, ${NOTIFICATIONS_PAGE_SIZE} a page, with the unread count`,
      querystring: NotificationsQuery,
      response: { 200: NotificationsPublic },
    },
    handler: (req) =>
      listNotifications(ctx.db, currentUser(req), {
        skip: (req.query.page - 1) * NOTIFICATIONS_PAGE_SIZE,
        limit: NOTIFICATIONS_PAGE_SIZE,
      }),
  });

  app.get('/notifications/unread-count', {
    schema: { operationId: 'readUnreadCount', tags, summary: 'How many of your notifications are unread', response: { 200: UnreadCount } },
    handler: async (req) => ({ unreadCount: await unreadCount(ctx.db, currentUser(req)) }),
  });

  app.post('/notifications/read', {
    schema: {
      operationId: 'markNotificationsRead',
      tags,
      summary: 'Mark these notifications read (`ids`), or all of yours when none are given; answers the unread count',
      body: MarkRead,
      response: { 200: UnreadCount },
    },
    handler: async (req) => {
      const user = currentUser(req);
      const count = await markRead(ctx.db, user, req.body.ids);
      // The user's other tabs update their bell too.
      await notifyUsers(ctx.db, [user.id]);
      return { unreadCount: count };
    },
  });

  const stop = async (req: FastifyRequest<{ Querystring: { token: string } }>, reply: FastifyReply) => {
    const ids = stopTokens.watchesOf(req.query.token);
    const stopped = ids ? await stopWatchEmail(ctx.db, ids) : [];
    const html = !(req.headers.accept ?? '').includes('application/json') && req.method === 'GET';
    if (stopped.length === 0) {
      if (html) return reply.code(404).type('text/html; charset=utf-8').send(page(EMAIL_STOP_INVALID));
      throw notFound('Watch', EMAIL_STOP_INVALID);
    }
    if (html) return reply.type('text/html; charset=utf-8').send(page(EMAIL_STOPPED));
    return { message: EMAIL_STOPPED, watch_ids: stopped };
  };
  const emailStopSchema = {
    tags,
    querystring: EmailStopQuery,
    response: {
      200: {
        description: 'Stopped: a small page for a browser, JSON when asked for (Accept: application/json)',
        content: { 'application/json': { schema: EmailStopped }, 'text/html': { schema: EmailStopped } },
      },
      404: HttpErrorBody,
    },
  };
  app.get('/watches/email-stop', {
    config: { fairShare: false },
    schema: {
      ...emailStopSchema,
      operationId: 'stopWatchEmail',
      summary: 'The digest’s one-click link: stops the email of the watch (or watches) it names (no sign-in; the token is the proof)',
    },
    handler: stop,
  });
  // RFC 8058 one-click unsubscribe: the mail client POSTs `List-Unsubscribe=One-Click` to the header's link.
  app.post('/watches/email-stop', {
    config: { fairShare: false },
    schema: {
      ...emailStopSchema,
      operationId: 'stopWatchEmailOneClick',
      summary: 'RFC 8058 one-click unsubscribe (List-Unsubscribe-Post): stops the email of the watches the token names',
    },
    handler: stop,
  });
}

const page = (message: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Watch email</title></head><body><p>${message}</p></body></html>`;
