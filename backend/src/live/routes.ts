// GET /jobs/events: a server-sent event stream saying which of the user's jobs changed, so the jobs
// tables and the job page refresh when lookups finish instead of polling. Guarded like every route
// (bearer token; the browser reads it with fetch, since EventSource cannot send the header).
//   event: ready   once, when the stream is live: refetch now (anything before it was missed)
//   event: jobs    data {"ids":[…]}: these jobs changed (only jobs the user may see), at most once per interval
//   event: notifications  data {"unreadCount": n}: the user's notifications changed (a watch fired, some were read)
//   : ping         a comment every LIVE_HEARTBEAT_MS, so proxies keep a quiet stream open
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import type { App, AppContext } from '../core/context.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { must } from '@app/domain/must';
import { HttpError, tooManyRequests } from '../lib/http-errors.ts';
import { currentUser } from '../users/current-user.ts';
import { JobEventsHub } from './hub.ts';
import { liveStreamClients } from '../metrics/instruments.ts';

/** How long a new stream waits for the listener to be in place before answering 503. */
const LISTENER_WAIT_MS = 3000;
/** A client this far behind reading is not reading: its stream ends (it reconnects and catches up). */
const MAX_BUFFERED_BYTES = 64 * 1024;

/** How long an ended stream's last bytes have to leave before its socket is closed. */
const SOCKET_GRACE_MS = 100;

export const sseMessage = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function liveRoutes(app: App, ctx: AppContext): void {
  const { config } = ctx;
  const hub = new JobEventsHub({
    db: ctx.db,
    listen: ctx.listen,
    intervalMs: config.LIVE_UPDATE_INTERVAL_MS,
    recheckMs: config.LIVE_HEARTBEAT_MS,
    log: app.log,
  });
  // Before the server waits for open requests to end: streams end now, so close() never hangs.
  app.addHook('preClose', async () => hub.close());

  app.get('/jobs/events', {
    config: { fairShare: false },
    schema: {
      operationId: 'jobEvents',
      tags: ['jobs'],
      summary: 'Server-sent events naming the jobs of yours that changed (read with fetch; not for the generated client)',
      response: {
        200: {
          description: 'An event stream: ready, then jobs {"ids": [...]} and notifications {"unreadCount": n}, with ": ping" heartbeats',
          content: { 'text/event-stream': { schema: z.string() } },
        },
        429: HttpErrorBody,
        503: HttpErrorBody,
      },
    },
    handler: async (req, reply) => {
      const user = currentUser(req);
      if (hub.streamsOf(user.id) >= config.LIVE_MAX_STREAMS_PER_USER)
        throw tooManyRequests('Too many live update streams are open; pages refresh by polling instead', 30);
      if (!(await hub.ready(LISTENER_WAIT_MS)))
        throw new HttpError(503, 'Live updates are unavailable right now; pages refresh by polling instead', { 'retry-after': '5' });

      const stream = new PassThrough();
      const write = (text: string) => {
        if (stream.writableLength > MAX_BUFFERED_BYTES) return stream.end();
        stream.write(text);
      };
      const heartbeat = setInterval(() => write(': ping\n\n'), config.LIVE_HEARTBEAT_MS);
      const remove = hub.add({
        userId: user.id,
        superuser: user.is_superuser,
        // The guard checked the token against this stamp; the hub compares it with the user's again.
        passwordStamp: user.password_changed_at.getTime(),
        sessionStamp: user.session_stamp.getTime(),
        tokenId: must(req.accessToken, 'the guard accepted a token').id,
        send: (ids) => write(sseMessage('jobs', { ids })),
        notify: (unreadCount) => write(sseMessage('notifications', { unreadCount })),
        // The last bytes go out, then the socket closes whatever the client does: a client that
        // neither reads nor hangs up must not hold app.close().
        end: () => {
          stream.end();
          setTimeout(() => req.raw.socket.destroy(), SOCKET_GRACE_MS).unref();
        },
      });
      liveStreamClients.inc();
      let open = true;
      const done = () => {
        if (open) liveStreamClients.dec();
        open = false;
        clearInterval(heartbeat);
        remove();
        if (!stream.writableEnded) stream.end();
      };
      // The client went away (tab closed, logout, reload) or the hub ended the stream.
      reply.raw.once('close', done);
      stream.once('end', done);
      write(sseMessage('ready', {}));
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        // Reverse proxies (nginx) would otherwise buffer the events.
        .header('x-accel-buffering', 'no')
        // The socket closes with the stream: a kept-alive socket left after it ended would hold app.close().
        .header('connection', 'close');
      // The documented 200 is the event stream; the type provider cannot see that a stream sends it.
      return reply.send(stream as never);
    },
  });
}
