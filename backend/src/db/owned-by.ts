// Who may see a row: its owner, and superusers every row.
import { eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** The condition keeping the rows whose `column` (an owner_id) is the user's; none for a superuser. */
export const ownedBy = (column: PgColumn, user: { id: string; is_superuser: boolean }): SQL | undefined =>
  user.is_superuser ? undefined : eq(column, user.id);
