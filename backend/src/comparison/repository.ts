// One job's comparison rows: filters and sort from the comparison field table, a page, its bounded
// count and the CSV of the same query. The caller has checked that the user may see the job.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { COMPARISON_CSV_FIELDS, COMPARISON_FIELDS, DECISION_FIELD } from '@app/domain/comparison';
import type { Filter } from '@app/domain/fields';
import type { Db } from '../db/client.ts';
import type { CsvExporter } from '../db/csv-exporter.ts';
import { bounded, countUpTo, type BoundedCount } from '../db/bounded-count.ts';
import { executeNamed } from '../db/named-statement.ts';
import { nullsLastPage } from '../db/nulls-last-page.ts';
import type { JobRow } from '../jobs/repository.ts';
import { filtersToSql, orderBySql, sortKeys } from '../lib/filter-sql.ts';
import { comparisonRows, jobProgress } from '../db/schema.ts';
import type { FeeSchedules } from '../fees/repository.ts';
import { baseMarketplace, comparisonBase, comparisonTable, decisionsBase, profitAt, type ComparisonOptions } from './query.ts';
import { COMPUTED_FIELDS, PARTIAL_INDEXED_FIELDS, STORED_FIELDS } from './stored.ts';
import type { Page } from '../db/page.ts';

export interface ComparisonQuery extends ComparisonOptions {
  filters: Filter[];
  sort_by?: string;
  sort_direction?: 'asc' | 'desc';
}

/** Upload order unless the user sorts. */
const DEFAULT_SORT = 'id';

function conditions(job: JobRow, q: ComparisonQuery) {
  const where = filtersToSql(COMPARISON_FIELDS, q.filters);
  const answers = storedAnswers(job, q);
  const stored = answers && needsStored(q);
  const table = comparisonTable(job, { ...q, stored });
  const from = sql`FROM ${table}${where ? sql` WHERE ${where}` : sql``}`;
  const sort = sortKeys(COMPARISON_FIELDS, q.sort_by ?? DEFAULT_SORT, q.sort_direction);
  const keys = answers ? storedTable(job, q.fees) : undefined;
  // A page (and its count) the stored rows can answer is found there, even in upload order: the
  // computed comparison's plan alone took ~20 ms at 1M ISBNs (4 lookup tables of ~25 indexes each),
  // the stored one's a few.
  const storedFrom = keys ? sql`FROM ${keys}${where ? sql` WHERE ${where}` : sql``}` : undefined;
  return {
    table,
    where,
    sort,
    from,
    keys,
    stored: storedFrom,
    countFrom: storedFrom ?? countSource(job, q.filters, where) ?? from,
    orderBy: orderBySql(sort),
  };
}

const queryFields = (q: ComparisonQuery) => [q.sort_by ?? DEFAULT_SORT, ...q.filters.map((f) => f.field)];

/**
 * Whether the job's stored comparison alone can say which rows a request wants and in what order:
 * the job has one and the sort and every filter are on columns it stores (the others, such as a
 * marketplace's price or the title, need the joins).
 */
const storedAnswers = (job: JobRow, q: ComparisonQuery) => job.comparison_stored && queryFields(q).every((f) => STORED_FIELDS.has(f));

/** Whether the sort or a filter is on a computed column: without the stored one, every row of the job would be computed. */
const needsStored = (q: ComparisonQuery) => queryFields(q).some((f) => COMPUTED_FIELDS.has(f));

/** `(SELECT …) comparison` of the job's stored rows alone, with the comparison's names for the stored fields. */
function storedTable(job: JobRow, fees: FeeSchedules): SQL {
  return sql`(SELECT row_id AS id, isbn, best_price, best_source, spread,
      ${profitAt(job, sql`best_price`, sql`best_source`, fees)} AS estimated_profit
    FROM ${comparisonRows} WHERE job_id = ${job.id}) comparison`;
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

export async function listComparison(db: Db, job: JobRow, q: ComparisonQuery, page: Page) {
  const { from, keys, stored, countFrom, orderBy, where, sort } = conditions(job, q);
  const columns = sql.join(
    COMPARISON_FIELDS.map((f) => sql.identifier(f.name)),
    sql`, `,
  );
  const computed = (only: Pick<ComparisonOptions, 'only' | 'rowIds'>) =>
    sql`SELECT ${columns} FROM ${comparisonTable(job, { ...q, stored: true, ...only })} ORDER BY ${orderBy}`;
  const [key] = sort;
  const pageRows = (query: SQL) => executeNamed<Record<string, unknown>>(db, query);
  // Stored: the page's rows found in comparison_rows (by its indexes), then only those computed.
  // Sorted on a stored column, whose index holds only the rows with a value, the page's rows are
  // found in two index-served parts (db/nulls-last-page.ts) and then computed by row id.
  const rowsQuery = async () => {
    if (!stored) return pageRows(sql`SELECT ${columns} ${from} ORDER BY ${orderBy} OFFSET ${page.skip} LIMIT ${page.limit}`);
    if (key?.nulls !== 'last' || !PARTIAL_INDEXED_FIELDS.has(key.column))
      return pageRows(
        computed({ only: ({ id }) => sql`${id} IN (SELECT id ${stored} ORDER BY ${orderBy} OFFSET ${page.skip} LIMIT ${page.limit})` }),
      );
    const storedWhere = (extra: SQL) => sql`FROM ${keys} WHERE ${and(where, extra)}`;
    const ids = await nullsLastPage(
      {
        rows: async (extra, order, skip, limit) =>
          (
            await executeNamed<{ id: string }>(db, sql`SELECT id ${storedWhere(extra)} ORDER BY ${order} OFFSET ${skip} LIMIT ${limit}`)
          ).map((r) => Number(r.id)),
        countUpTo: async (extra, bound) => (await countUpTo(db, storedWhere(extra), bound)).count,
      },
      sql`${sql.identifier(key.column)}`,
      sql`${sql.identifier('id')}`,
      key.direction,
      page,
    );
    return ids.length ? pageRows(computed({ rowIds: ids })) : [];
  };
  const [rows, total] = await Promise.all([rowsQuery(), where ? countUpTo(db, countFrom) : countJobIsbns(db, job, countFrom)]);
  return { data: rows.map(toRow), ...total };
}

/**
 * The unfiltered comparison's count: one row per ISBN of the job, which ingest wrote as each
 * marketplace's total (job_progress) and which never changes (a job's lookups go only with the job).
 * Counting up to the bound read 10,001 lookup rows instead (~20 ms at 1M ISBNs, the job page's
 * default view). A job without counters (written before them) is counted from its rows.
 */
async function countJobIsbns(db: Db, job: JobRow, countFrom: SQL): Promise<BoundedCount> {
  const [progress] = await db
    .select({ total: jobProgress.total })
    .from(jobProgress)
    .where(and(eq(jobProgress.job_id, job.id), eq(jobProgress.source, baseMarketplace(job).id)));
  return progress ? bounded(progress.total) : countUpTo(db, countFrom);
}

/** node-postgres answers bigint ids as text; the API's id is a number. */
const toRow = (r: Record<string, unknown>) => ({ ...r, id: Number(r.id) });

/** The comparison's columns (all but the row id) as CSV, in the page's order; started. */
export function comparisonCsv(exporter: CsvExporter, job: JobRow, q: ComparisonQuery) {
  const { table, where, sort, keys } = conditions(job, q);
  // Stored: the table reads its stored columns from comparison_rows, so a keyset page on them can
  // walk its indexes, and the pages' bounds come from comparison_rows alone (PGlite's paged export).
  return exporter.stream({ columns: COMPARISON_CSV_FIELDS, from: table, where, sort, keys });
}
