// How long a request's body may take, and what happens to the part of it nobody read.
//
// Timeouts: Fastify waits for a body forever by default, so a client sending a byte now and then
// (no sign-in needed: the login form reads its body) held a connection and a parser for as long as
// it liked. A body must keep coming (no gap longer than the idle timeout) and be complete within
// the total timeout, else the answer is 408 {detail} and the connection closes.
//
// Lingering: an answer sent before the body has arrived (a refused token, an unknown route, a body
// past the limit) was lost: the socket closed with the body still coming, so the client, still
// sending, met a reset and never read the answer. Such an answer now waits until the rest of the
// body has arrived and been thrown away, as a web server's lingering close does, up to
// DRAIN_MAX_BYTES and DRAIN_MAX_MS (and the idle timeout); past either the connection closes after
// the answer.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const BODY_TIMEOUT_DETAIL = 'The request body took too long to arrive';

const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

export interface BodyTimeouts {
  /** The longest gap between two pieces of a body. */
  idleMs: number;
  /** The longest a whole body may take. */
  totalMs: number;
}

/** Requests whose body timed out: answered 408, never drained. */
const timedOut = new WeakSet<FastifyRequest>();

const bodyDone = (raw: IncomingMessage) => raw.complete || raw.readableEnded || raw.destroyed;

/**
 * Calls `expire` when the body of `raw` stops coming for `idleMs` or is not complete within `totalMs`
 * of now; returns the stop. Bytes are seen on the socket, so the body's own stream is not touched
 * (a 'data' listener on it would start its flow before its reader is there).
 */
function watchBody(raw: IncomingMessage, t: BodyTimeouts, expire: () => void): () => void {
  const socket = raw.socket;
  let idle = setTimeout(fire, t.idleMs).unref();
  const total = setTimeout(fire, t.totalMs).unref();
  function onData() {
    clearTimeout(idle);
    idle = setTimeout(fire, t.idleMs).unref();
  }
  function stop() {
    clearTimeout(idle);
    clearTimeout(total);
    socket?.off('data', onData);
    raw.off('end', stop);
    raw.off('close', stop);
  }
  function fire() {
    stop();
    if (!(raw.complete || raw.readableEnded)) expire();
  }
  socket?.on('data', onData);
  raw.once('end', stop);
  raw.once('close', stop);
  return stop;
}

/** Reads and discards the rest of `raw`; true once it has all arrived, false past a bound. */
export function drainRequestBody(raw: IncomingMessage, t: BodyTimeouts, maxBytes = DRAIN_MAX_BYTES): Promise<boolean> {
  if (bodyDone(raw)) return Promise.resolve(raw.complete || raw.readableEnded);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (drained: boolean) => {
      stopWatching();
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    const stopWatching = watchBody(raw, { idleMs: t.idleMs, totalMs: Math.min(t.totalMs, DRAIN_MAX_MS) }, () => finish(false));
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.resume();
  });
}

export function installRequestBodyGuards(app: FastifyInstance, t: BodyTimeouts): void {
  app.addHook('onRequest', async (req, reply) => {
    if (bodyDone(req.raw)) return;
    const stop = watchBody(req.raw, t, () => {
      timedOut.add(req);
      if (reply.sent) return req.raw.destroy();
      // Once the answer is out, the request is destroyed: whatever still waits for its body (a
      // multipart reader holding an upload's place) sees it end and gives up.
      reply.raw.once('finish', () => req.raw.destroy());
      void reply.code(408).header('connection', 'close').send({ detail: BODY_TIMEOUT_DETAIL });
    });
    // Answered: what is left of the body is the lingering read's (onSend below) or the socket's.
    reply.raw.once('finish', stop);
    reply.raw.once('close', stop);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    if (bodyDone(req.raw)) return payload;
    if (timedOut.has(req) || !(await drainRequestBody(req.raw, t))) reply.header('connection', 'close');
    return payload;
  });
}
