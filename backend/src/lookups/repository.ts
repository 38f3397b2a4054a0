// One marketplace's price lookups in the database: visibility (lookups of the user's own jobs;
// superusers all), filters and sort from its field table, a page, its bounded count, the CSV of the
// same query, and every offer of one lookup.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Filter } from '@app/domain/fields';
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import type { Db } from '../db/client.ts';
import type { CsvExporter } from '../db/csv-exporter.ts';
import { LOOKUP_TABLES, jobs } from '../db/schema.ts';
import { countUpTo } from '../db/bounded-count.ts';
import { filtersToSql, orderBySql, sortKeys, type SortKey } from '../lib/filter-sql.ts';
import { nullsLastPage } from '../db/nulls-last-page.ts';
import type { UserRow } from '../users/schemas.ts';
import type { Page } from '../db/page.ts';

export interface LookupQuery {
  filters: Filter[];
  sort_by?: string;
  sort_direction?: 'asc' | 'desc';
}

const tableOf = (m: MarketplaceInfo) => LOOKUP_TABLES[m.id];
const columnsOf = (m: MarketplaceInfo) => tableOf(m) as unknown as Record<string, PgColumn>;

/** Lookups of the user's own jobs; none for superusers (they see all). */
function visibleLookups(m: MarketplaceInfo, user: UserRow): SQL | undefined {
  if (user.is_superuser) return undefined;
  return sql`${tableOf(m).isbn_lookup_job_id} IN (SELECT ${jobs.id} FROM ${jobs} WHERE ${jobs.owner_id} = ${user.id})`;
}

/** The WHERE and ORDER BY shared by the page, the count and the export. */
export function lookupConditions(
  m: MarketplaceInfo,
  user: UserRow,
  q: LookupQuery,
): { where: SQL | undefined; sort: SortKey[]; orderBy: SQL } {
  // The filters first: their 422 comes before the sort's.
  const where = and(filtersToSql(m.fields, q.filters), visibleLookups(m, user));
  const sort = sortKeys(m.fields, q.sort_by, q.sort_direction);
  return { where, sort, orderBy: orderBySql(sort) };
}

const fromWhere = (m: MarketplaceInfo, where: SQL | undefined) => sql`FROM ${tableOf(m)}${where ? sql` WHERE ${where}` : sql``}`;

/** When the marketplace answered, and whether that answer was reused from an earlier lookup (worker/reuse.ts). */
const answerAge = (t: ReturnType<typeof tableOf>) => ({
  answered_at: t.answered_at,
  reused: sql<boolean>`${t.reused_from} IS NOT NULL`.mapWith(Boolean),
});

/** The columns of a page: every field, and when (and why) a queued lookup that failed before is tried again. */
function pageColumns(m: MarketplaceInfo) {
  const t = tableOf(m);
  const columns = columnsOf(m);
  const waitingRetry = sql`${t.lookup_status} = 'queued' AND ${t.attempts} > 0`;
  return {
    ...Object.fromEntries(m.fields.map((f) => [f.name, columns[f.name]])),
    retry_at: sql<Date | null>`CASE WHEN ${waitingRetry} THEN ${t.next_attempt_at} END`.mapWith(t.next_attempt_at),
    retry_reason: sql<string | null>`CASE WHEN ${waitingRetry} THEN ${t.last_error} END`,
    ...answerAge(t),
  };
}

/** One page of lookups. Sorted on a nullable column it is read in two index-served parts (db/nulls-last-page.ts). */
export async function lookupPageQuery(db: Db, m: MarketplaceInfo, user: UserRow, q: LookupQuery, page: Page) {
  const { where, sort, orderBy } = lookupConditions(m, user, q);
  const t = tableOf(m);
  const rows = (extra: SQL | undefined, order: SQL, skip: number, limit: number) =>
    db.select(pageColumns(m)).from(t).where(and(where, extra)).orderBy(order).offset(skip).limit(limit);
  // sortKeys marks a nullable column of the table's own with empty values last: such a page is split.
  const [key] = sort;
  if (key?.nulls !== 'last') return rows(undefined, orderBy, page.skip, page.limit);
  return nullsLastPage(
    { rows, countUpTo: async (extra, bound) => (await countUpTo(db, fromWhere(m, and(where, extra)), bound)).count },
    sql`${sql.identifier(key.column)}`,
    sql`${sql.identifier('id')}`,
    key.direction,
    page,
  );
}

export async function listLookups(db: Db, m: MarketplaceInfo, user: UserRow, q: LookupQuery, page: Page) {
  const [data, total] = await Promise.all([lookupPageQuery(db, m, user, q, page), countLookups(db, m, user, q)]);
  return { data, ...total };
}

export async function countLookups(db: Db, m: MarketplaceInfo, user: UserRow, q: LookupQuery) {
  return countUpTo(db, fromWhere(m, lookupConditions(m, user, q).where));
}

/** The page's shown columns as CSV, in the page's order; started (rejects with a status when it cannot run). */
export function lookupsCsv(exporter: CsvExporter, m: MarketplaceInfo, user: UserRow, q: LookupQuery) {
  const { where, sort } = lookupConditions(m, user, q);
  return exporter.stream({ columns: m.fields.filter((f) => f.column), from: sql`${tableOf(m)}`, where, sort });
}

/** One lookup with every offer the marketplace returned; undefined when the user may not see it. */
export async function readOffers(db: Db, m: MarketplaceInfo, user: UserRow, id: number) {
  const t = tableOf(m);
  const [row] = await db
    .select({
      id: t.id,
      isbn: t.isbn,
      lookup_status: t.lookup_status,
      last_error: t.last_error,
      attempts: t.attempts,
      offers: t.offers,
      ...answerAge(t),
    })
    .from(t)
    .where(and(eq(t.id, id), visibleLookups(m, user)));
  return row && { ...row, offers: Array.isArray(row.offers) ? (row.offers as Record<string, unknown>[]) : [] };
}
