// The audit trail: the actions it records and the field table of its list (/admin/audit), shared by
// the API (filters, sort, CSV) and the page (filter builder, columns).
import { col, field, type FieldDef } from './fields.ts';

/** Every action an audit event can name; the API writes no other. */
export const AUDIT_ACTIONS = [
  'job.created',
  'job.cancelled',
  'job.retried',
  'job.repriced',
  'job.deleted',
  'user.created',
  'user.updated',
  'user.deleted',
  'auth.login_succeeded',
  'auth.login_failed',
  'auth.password_changed',
  'auth.password_reset',
  'auth.signed_out_everywhere',
  'fee_schedule.updated',
  'fee_schedule.reset',
  'job.cost_set',
  'rule_set.created',
  'rule_set.updated',
  'rule_set.deleted',
  'rule_set.team_default_set',
  'rule_set.team_default_unset',
  'job.schedule_set',
  'job.schedule_paused',
  'job.schedule_resumed',
  'job.schedule_removed',
  'job.schedule_run',
  'job.schedule_skipped',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ['job', 'user', 'rule_set', 'fee_schedule'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_FIELDS: readonly FieldDef[] = [
  { ...col('id', 'Event ID', 'number'), required: true },
  { ...col('created_at', 'At', 'date'), required: true },
  { ...col('action', 'Action'), required: true },
  col('actor_email', 'Actor'),
  col('target_type', 'Target Type'),
  col('target_id', 'Target ID'),
  col('target_label', 'Target'),
  col('client_address', 'Client Address'),
  // Shown and downloaded as JSON text; not filterable (it has no one type) nor sortable.
  field('details', 'Details', 'text', { column: true, filterable: false, sortable: false }),
  // Kept for filtering by a user who may since have changed their email.
  field('actor_id', 'Actor ID'),
];
