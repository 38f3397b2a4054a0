// The one structured logger (pino, as Fastify uses): the API, the worker and the sandbox processes
// all log JSON lines through it, at LOG_LEVEL.
import { pino, type DestinationStream, type Logger } from 'pino';
import { errorForLog } from './log-redaction.ts';

export type { Logger };
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Request lines as logged: method and path only; a query string can carry tokens or hashes. */
function requestForLog(req: { method: string; url: string; ip?: string }) {
  return { method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip };
}

export function createLogger(opts: { level: LogLevel; name?: string; destination?: DestinationStream }): Logger {
  return pino({ level: opts.level, name: opts.name, serializers: { req: requestForLog, err: errorForLog } }, opts.destination);
}
