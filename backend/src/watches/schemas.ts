// The watch and notification API's shapes. What comes in is only held to its types and bounds here;
// what the conditions mean (fields, operators, values, how many) is checked by the domain's
// validateWatch, the rule editor's own checks, and refused as a 422 naming the part.
import { OPERATOR_LABELS, type FilterOperator } from '@app/domain/fields';
import { z } from 'zod';
import { FilterSchema } from '../lib/filter-sql.ts';
import { IsbnText } from '../lib/isbn-schema.ts';

const id = (what: string) =>
  z.coerce.number().int(`Invalid ${what} id`).positive(`Invalid ${what} id`).max(2_147_483_647, `Invalid ${what} id`);

export const WatchIdParam = z.object({ id: id('watch') });

export const WatchesQuery = z.object({
  isbn: IsbnText.optional(),
  jobId: id('job').optional(),
});

// Bounds well above the domain's limits, so an oversized list gets the domain's own message.
const Conditions = z.array(FilterSchema).max(200);
const Name = z.string().max(2000).nullish();

export const WatchCreate = z
  .object({
    isbn: IsbnText.optional(),
    jobId: id('job').optional(),
    name: Name,
    conditions: Conditions,
    email: z.boolean().default(true),
  })
  .meta({ id: 'WatchCreate' });

export const WatchUpdate = z
  .object({ name: Name, conditions: Conditions.optional(), email: z.boolean().optional() })
  .meta({ id: 'WatchUpdate' });

// Every operator (the labels' keys are all of them).
const OPERATORS = Object.keys(OPERATOR_LABELS) as [FilterOperator, ...FilterOperator[]];
const WatchCondition = z.object({ field: z.string(), operator: z.enum(OPERATORS), value: z.string() }).meta({ id: 'WatchCondition' });

export const WatchPublic = z
  .object({
    id: z.number().int(),
    isbn: z.string().nullable(),
    job_id: z.number().int().nullable(),
    name: z.string().nullable(),
    conditions: z.array(WatchCondition),
    email: z.boolean(),
    /** Fires on the next answer that makes its conditions true (a job watch: no book of it waits to re-arm). */
    armed: z.boolean(),
    last_fired_at: z.date().nullable(),
    created_at: z.date(),
  })
  .meta({ id: 'WatchPublic' });
export const WatchesPublic = z.object({ data: z.array(WatchPublic), count: z.number().int() }).meta({ id: 'WatchesPublic' });

export const NotificationsQuery = z.object({
  page: z.coerce.number().int('Invalid page').min(1, 'Invalid page').max(100_000, 'Invalid page').default(1),
});

export const NotificationPublic = z
  .object({
    id: z.number().int(),
    watch_id: z.number().int().nullable(),
    isbn: z.string(),
    job_id: z.number().int().nullable(),
    message: z.string(),
    created_at: z.date(),
    read_at: z.date().nullable(),
  })
  .meta({ id: 'NotificationPublic' });
export const NotificationsPublic = z
  .object({ data: z.array(NotificationPublic), count: z.number().int(), unreadCount: z.number().int() })
  .meta({ id: 'NotificationsPublic' });

export const UnreadCount = z.object({ unreadCount: z.number().int() }).meta({ id: 'UnreadCount' });

export const MarkRead = z
  .object({ ids: z.array(z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(1000).optional() })
  .meta({ id: 'MarkNotificationsRead' });

export const EmailStopQuery = z.object({ token: z.string().max(200) });
export const EmailStopped = z.object({ message: z.string(), watch_ids: z.array(z.number().int()) }).meta({ id: 'WatchEmailStopped' });
