// Reading the audit trail: filters and sort from its field table (@app/domain/audit), a page with
// its bounded count, and the same query as CSV. Superusers only (the routes say so).
import { AUDIT_FIELDS } from '@app/domain/audit';
import type { Filter } from '@app/domain/fields';
import { and, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { countUpTo } from '../db/bounded-count.ts';
import { nullsLastPage } from '../db/nulls-last-page.ts';
import type { CsvExporter } from '../db/csv-exporter.ts';
import { auditEvents } from '../db/schema.ts';
import { filtersToSql, orderBySql, sortKeys, type SortKey } from '../lib/filter-sql.ts';
import type { Page } from '../db/page.ts';

export interface AuditQuery {
  filters: Filter[];
  sort_by?: string;
  sort_direction?: 'asc' | 'desc';
}

function conditions(q: AuditQuery): { where: SQL | undefined; sort: SortKey[]; orderBy: SQL } {
  // The filters first: their 422 comes before the sort's.
  const where = filtersToSql(AUDIT_FIELDS, q.filters);
  const sort = sortKeys(AUDIT_FIELDS, q.sort_by, q.sort_direction);
  return { where, sort, orderBy: orderBySql(sort) };
}

const whereClause = (where: SQL | undefined) => (where ? sql` WHERE ${where}` : sql``);

/**
 * One page and its bounded count. Sorted on a nullable column (empty values last either way) the page
 * is read in two index-served parts (db/nulls-last-page.ts): `col DESC NULLS LAST` cannot walk an index.
 */
export async function listAuditEvents(db: Db, q: AuditQuery, page: Page) {
  const { where, sort, orderBy } = conditions(q);
  const rows = (extra: SQL | undefined, order: SQL, skip: number, limit: number) =>
    db.select().from(auditEvents).where(and(where, extra)).orderBy(order).offset(skip).limit(limit);
  const [key] = sort;
  const pageRows =
    key?.nulls === 'last'
      ? nullsLastPage(
          {
            rows,
            countUpTo: async (extra, bound) =>
              (await countUpTo(db, sql`FROM ${auditEvents}${whereClause(and(where, extra))}`, bound)).count,
          },
          sql`${sql.identifier(key.column)}`,
          sql`${sql.identifier('id')}`,
          key.direction,
          page,
        )
      : rows(undefined, orderBy, page.skip, page.limit);
  const [data, total] = await Promise.all([pageRows, countUpTo(db, sql`FROM ${auditEvents}${whereClause(where)}`)]);
  return { data, ...total };
}

/**
 * Every field of the filtered events as CSV, in the page's order. The details are written as their
 * JSON text: the query reads a view of the table with that one column cast (COPY and the paged
 * exporter both take plain columns by name).
 */
export function auditEventsCsv(exporter: CsvExporter, q: AuditQuery) {
  const { where, sort } = conditions(q);
  const columns = AUDIT_FIELDS.filter((f) => f.name !== 'details').map((f) => sql.identifier(f.name));
  const from = sql`(SELECT ${sql.join(columns, sql`, `)}, details::text AS details FROM ${auditEvents}) AS audit_events`;
  return exporter.stream({ columns: AUDIT_FIELDS, from, where, sort });
}
