// One job's comparison rows: filters and sort from the comparison field table, a page, its bounded
// count and the CSV of the same query. The caller has checked that the user may see the job.
import { sql, type SQL } from 'drizzle-orm';
import { COMPARISON_CSV_FIELDS, COMPARISON_FIELDS, DECISION_FIELD } from '@app/domain/comparison';
import type { Filter } from '@app/domain/fields';
import type { Db } from '../db/client.ts';
import type { CsvExporter } from '../db/csv-exporter.ts';
import { countUpTo } from '../db/bounded-count.ts';
import type { JobRow } from '../jobs/repository.ts';
import { filtersToSql, orderBySql, sortKeys } from '../lib/filter-sql.ts';
import { comparisonBase, comparisonTable, decisionsBase, type ComparisonOptions } from './query.ts';

export interface ComparisonQuery extends ComparisonOptions {
  filters: Filter[];
  sort_by?: string;
  sort_direction?: 'asc' | 'desc';
}

/** Upload order unless the user sorts. */
const DEFAULT_SORT = 'id';

function conditions(job: JobRow, q: ComparisonQuery) {
  const where = filtersToSql(COMPARISON_FIELDS, q.filters);
  const table = comparisonTable(job, q);
  const from = sql`FROM ${table}${where ? sql` WHERE ${where}` : sql``}`;
  const sort = sortKeys(COMPARISON_FIELDS, q.sort_by ?? DEFAULT_SORT, q.sort_direction);
  return { table, where, sort, from, countFrom: countSource(job, q.filters, where) ?? from, orderBy: orderBySql(sort) };
}

/**
 * Where the rows can be counted without the joins: unfiltered, the rows are the job's ISBNs (the
 * joins add one row each at most); filtered on the decision alone, the judged job's decisions.
 */
function countSource(job: JobRow, filters: Filter[], where: SQL | undefined): SQL | undefined {
  if (!where) return comparisonBase(job);
  if (job.judged_at && filters.every((f) => f.field === DECISION_FIELD)) return decisionsBase(job, where);
  return undefined;
}

export async function listComparison(db: Db, job: JobRow, q: ComparisonQuery, page: { skip: number; limit: number }) {
  const { from, countFrom, orderBy } = conditions(job, q);
  const columns = sql.join(
    COMPARISON_FIELDS.map((f) => sql.identifier(f.name)),
    sql`, `,
  );
  const [rows, total] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`SELECT ${columns} ${from} ORDER BY ${orderBy} OFFSET ${page.skip} LIMIT ${page.limit}`),
    countUpTo(db, countFrom),
  ]);
  return { data: rows.rows.map(toRow), ...total };
}

/** node-postgres answers bigint ids as text; the API's id is a number. */
const toRow = (r: Record<string, unknown>) => ({ ...r, id: Number(r.id) });

/** The comparison's columns (all but the row id) as CSV, in the page's order; started. */
export function comparisonCsv(exporter: CsvExporter, job: JobRow, q: ComparisonQuery) {
  const { table, where, sort } = conditions(job, q);
  return exporter.stream({ columns: COMPARISON_CSV_FIELDS, from: table, where, sort });
}
