// Writing audit events. An action hands `auditStep(…)` to its repository, which runs it inside the
// action's own transaction, so an event exists exactly when the action committed. Events that record
// no write (a login) go straight in with `writeAuditEvent`.
import type { AuditAction, AuditTargetType } from '@app/domain/audit';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';
import type { TxStep } from '../db/tx-step.ts';

/** Who acted, as they were at the time: the email is kept so the trail still reads once they are gone. */
export interface AuditActor {
  user: { id: string; email: string } | null;
  address: string | null;
}

export interface AuditEvent {
  action: AuditAction;
  /** What it was done to; no id when there is none (a login to an unknown email: the label is the email tried). */
  target?: { type: AuditTargetType; id: string | number | null; label?: string | null };
  /** What else the event needs to be understood: names and counts, never a secret (redactDetails drops those). */
  details?: Record<string, unknown>;
  /** Overrides the request's actor (signup: the new user acts on themself). */
  actor?: AuditActor['user'];
}

/** The signed-in caller (null on a public route) and the client address (X-Forwarded-For only with TRUST_PROXY). */
export function requestActor(req: FastifyRequest): AuditActor {
  const user = req.currentUser;
  return { user: user ? { id: user.id, email: user.email } : null, address: req.ip ?? null };
}

/** Keys that could hold a secret, whatever the caller put under them: dropped at any depth. */
const SECRET_KEY = /pass|token|secret|hash|link|url|key|authorization|cookie/i;

/** The details as stored: secret-looking keys dropped, NUL (which jsonb cannot hold) shown as U+FFFD. */
export function redactDetails(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\0/g, '\uFFFD');
  if (Array.isArray(value)) return value.map(redactDetails);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !SECRET_KEY.test(k))
        .map(([k, v]) => [k, redactDetails(v)]),
    );
  }
  return value;
}

/** Text fitting its column: varchar lengths are limits, and NUL cannot be stored. */
const columnText = (text: string | null | undefined, max: number) => (text == null ? null : text.replace(/\0/g, '\uFFFD').slice(0, max));

export async function writeAuditEvent(db: Db | Tx, actor: AuditActor, event: AuditEvent): Promise<void> {
  const who = event.actor === undefined ? actor.user : event.actor;
  await db.insert(auditEvents).values({
    actor_id: who?.id ?? null,
    actor_email: columnText(who?.email, 255),
    action: event.action,
    target_type: event.target?.type ?? null,
    target_id: event.target?.id == null ? null : columnText(String(event.target.id), 64),
    target_label: columnText(event.target?.label, 255),
    client_address: columnText(actor.address, 64),
    details: redactDetails(event.details ?? {}) as Record<string, unknown>,
  });
}

/** A step that records the event `describe` makes of the action's result, in the action's transaction. */
export function auditStep<T>(actor: AuditActor, describe: (result: T) => AuditEvent): TxStep<T> {
  return (tx, result) => writeAuditEvent(tx, actor, describe(result));
}
