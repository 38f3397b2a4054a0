// The price-lookup query of one marketplace: visibility, filters and sort from its field table.
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { filtersToSql, quoteIdent, sortToSql, type FilterInput } from '../lib/filter-sql.ts';
import type { UserRow } from '../users/schemas.ts';

export interface LookupQuery {
  filters: FilterInput;
  sort_by?: string;
  sort_direction?: 'asc' | 'desc';
}

export interface BuiltQuery {
  /** FROM … WHERE … (no ORDER BY), shared by the page, the count and the export. */
  fromWhere: string;
  orderBy: string;
  params: unknown[];
}

export function selectList(m: MarketplaceInfo, which: 'all' | 'columns' = 'all'): string {
  return m.fields
    .filter((f) => which === 'all' || f.column)
    .map((f) => quoteIdent(f.name))
    .join(', ');
}

/** When a queued lookup that already failed will be tried again, and the error it met. */
export const RETRY_COLUMNS = `CASE WHEN lookup_status = 'queued' AND attempts > 0 THEN next_attempt_at END AS retry_at,
  CASE WHEN lookup_status = 'queued' AND attempts > 0 THEN last_error END AS retry_reason`;

/** Lookups of the user's own jobs; superusers see all ('' then). Adds its parameter to `params`. */
export function lookupVisibility(user: UserRow, params: unknown[]): string {
  if (user.is_superuser) return '';
  params.push(user.id);
  return `isbn_lookup_job_id IN (SELECT id FROM jobs WHERE owner_id = $${params.length})`;
}

export function buildLookupQuery(m: MarketplaceInfo, user: UserRow, q: LookupQuery): BuiltQuery {
  const params: unknown[] = [];
  const { where } = filtersToSql(m.fields, q.filters, params);
  const conditions = [where, lookupVisibility(user, params)].filter(Boolean);
  return {
    fromWhere: `FROM ${m.table}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}`,
    orderBy: sortToSql(m.fields, q.sort_by, q.sort_direction),
    params,
  };
}
