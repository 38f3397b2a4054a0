// The audit trail as the API answers it.
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@app/domain/audit';
import { z } from 'zod';
import { CountFields } from '../lib/api-schemas.ts';

export const AuditEventPublic = z
  .object({
    id: z.number().int(),
    created_at: z.date(),
    actor_id: z.string().nullable(),
    actor_email: z.string().nullable(),
    action: z.enum(AUDIT_ACTIONS),
    // A plain string: OpenAPI 3.0's nullable enum reaches the generated client without its null.
    target_type: z
      .string()
      .nullable()
      .describe(`One of ${AUDIT_TARGET_TYPES.join(', ')}`),
    target_id: z.string().nullable(),
    target_label: z.string().nullable(),
    client_address: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEventPublic' });

export const AuditEventsPublic = z.object({ data: z.array(AuditEventPublic), ...CountFields }).meta({ id: 'AuditEventsPublic' });
