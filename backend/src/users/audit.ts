// Audit events of changes to users (users/routes.ts) and of password resets (auth/routes.ts).
import type { AuditAction } from '@app/domain/audit';
import type { FastifyRequest } from 'fastify';
import { auditStep, requestActor, type AuditEvent } from '../audit/record.ts';
import type { TxStep } from '../db/tx-step.ts';
import type { UserRow } from './schemas.ts';

/**
 * The audit step of a change to a user, in the change's transaction: the user as written is the
 * target. `details` names what changed; a password is only ever named, never given.
 */
export function auditUser(
  req: FastifyRequest,
  action: AuditAction,
  details: (user: UserRow) => AuditEvent['details'] = () => ({}),
  actor?: (user: UserRow) => AuditEvent['actor'],
): TxStep<UserRow> {
  return auditStep(requestActor(req), (user) => ({
    action,
    target: { type: 'user', id: user.id, label: user.email },
    details: details(user),
    ...(actor ? { actor: actor(user) } : {}),
  }));
}
