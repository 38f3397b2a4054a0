// An answer sent before the request's body has arrived (a refused token, an unknown route, a body
// past the limit) used to be lost: the socket closed with the body still coming, so the client,
// still sending, met a reset and never read the answer. Such an answer now waits until the rest of
// the body has arrived and been thrown away, as a web server's lingering close does, up to
// DRAIN_MAX_BYTES and DRAIN_MAX_MS; past either the connection closes after the answer (a client
// that keeps sending that much after being refused is not one we owe an orderly answer).
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/** Reads and discards the rest of `raw`; true once it has all arrived, false past either bound. */
export function drainRequestBody(raw: IncomingMessage, maxBytes = DRAIN_MAX_BYTES, maxMs = DRAIN_MAX_MS): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
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
    const timer = setTimeout(() => finish(false), maxMs);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.resume();
  });
}

export function installBodyDrain(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.raw.complete || req.raw.readableEnded || req.raw.destroyed) return payload;
    if (!(await drainRequestBody(req.raw))) reply.header('connection', 'close');
    return payload;
  });
}
