// The comparison of one job's lookups across marketplaces as SQL: a derived table with one row per ISBN of
// the job (its columns named as COMPARISON_FIELDS), which filters, sorts, pages, counts and exports read
// like a table. Raw SQL on purpose: one aliased lookup table per marketplace the job asks, joined on ISBN,
// with columns computed from one another (best price → best source → spread) in nested selects; the query
// builder would need the same SQL fragments, only harder to read.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  BEST_PRICE_CHANGE,
  COMPARISON_CURRENCY,
  DECISION_FIELD,
  DECISION_RANK,
  DECISION_SOURCES,
  EXTRA_COLUMNS,
  PRICE_SOURCES,
  changeField,
  currencyField,
  decisionField,
  offersField,
  priceField,
  statusField,
  valueField,
} from '@app/domain/comparison';
import { MARKETPLACES, MARKETPLACE_LIST, type MarketplaceId, type MarketplaceInfo } from '@app/domain/marketplaces';
import { bookDetails, comparisonRows, jobDecisions } from '../db/schema.ts';
import type { JobRow } from '../jobs/repository.ts';
import type { FeeSchedules } from '../fees/repository.ts';
import { VELOCITY_OUTPUTS, velocityJoin } from '../velocity/comparison.ts';

/** What the comparison needs besides the job: the fee schedules in force (read once per request). */
export interface ComparisonOptions {
  fees: FeeSchedules;
  /** Join the job's stored decisions (default); judging leaves them out, since it writes them. */
  decisions?: boolean;
  /**
   * Read best price, best source and spread from the job's comparison_rows (comparison/stored.ts)
   * instead of computing them, so a sort or filter on them can walk that table's indexes. Only for a
   * job whose comparison is stored (jobs.comparison_stored).
   */
  stored?: boolean;
  /** Only the rows whose base lookup matches: `(id, isbn) => condition` on the base table's columns. */
  only?: (base: { id: SQL; isbn: SQL }) => SQL;
  /**
   * Only these rows (base lookup ids), read by primary key before anything else is joined: what the
   * planner believes of the job then does not matter. A job written since its table was last
   * analyzed is estimated at one row, and the planner read all its rows through the job's index to
   * find a handful by id (issue 29).
   */
  rowIds?: readonly number[];
}

/**
 * Money as SQL: computed in exact decimal (numeric) and rounded to cents, then handed on as double
 * precision, the number type the API, the filters and the CSV use. The lookup columns are doubles, so
 * sums and differences of them in floating point print as 31.500000000000004; the operands are cast
 * to numeric first (a double's numeric cast keeps its shortest decimal form, 19.99 stays 19.99).
 */
export const cents = (decimalExpr: SQL) => sql`round(${decimalExpr}, 2)::double precision`;
/** An operand of money arithmetic, as exact decimal. */
const dec = (expr: SQLWrapper) => sql`(${expr})::numeric`;

/** The stored comparison's alias in the joins. */
const STORED = sql.identifier('cr');

/** A column of one marketplace's lookup row in the join (each table is aliased by its marketplace id). */
export const column = (id: MarketplaceId, name: string) => sql`${sql.identifier(id)}.${sql.identifier(name)}`;

/**
 * The chosen offer's price with shipping where given, in its own currency; NULL when the job does not ask the marketplace.
 * `columnOf` names the lookup row's columns (the comparison's join by default; the worker's write-back
 * passes its own alias, so price history stores exactly the price the comparison shows).
 */
export function priceOf(
  s: (typeof PRICE_SOURCES)[number],
  asked: boolean,
  columnOf: (name: string) => SQL = (name) => column(s.marketplace, name),
): { price: SQL; currency: SQL } {
  if (!asked) return { price: sql`NULL::double precision`, currency: sql`NULL::text` };
  const price = sql`coalesce(${sql.join(
    s.price.map((p) => columnOf(p)),
    sql`, `,
  )})`;
  // Shipping the marketplace must state (eBay's CALCULATED shipping has none): without it there is no delivered price.
  const shipping = s.shipping && (s.shippingRequired ? dec(columnOf(s.shipping)) : sql`coalesce(${dec(columnOf(s.shipping))}, 0)`);
  const withShipping = cents(shipping ? sql`${dec(price)} + ${shipping}` : dec(price));
  // A currency is written upper-case in three letters; an empty one means the marketplace's default (USD).
  const currency = s.currency
    ? sql`CASE WHEN ${withShipping} IS NOT NULL THEN upper(coalesce(nullif(${columnOf(s.currency)}, ''), ${COMPARISON_CURRENCY})) END`
    : sql`CASE WHEN ${withShipping} IS NOT NULL THEN ${COMPARISON_CURRENCY}::text END`;
  return { price: withShipping, currency };
}

const textOrNull = (asked: boolean, value: SQL) => (asked ? value : sql`NULL::text`);

/**
 * The job's base marketplace: the first it asks, one lookup per accepted ISBN in upload order,
 * whose lookup ids are the comparison's row ids (and comparison_rows' row_id).
 */
export function baseMarketplace(job: JobRow): MarketplaceInfo {
  const base = MARKETPLACE_LIST.find((m) => job[m.id]) ?? MARKETPLACE_LIST[0];
  if (!base) throw new Error('The marketplace registry is empty');
  return base;
}

/**
 * `(SELECT …) comparison`: the job's comparison rows. The base marketplace gives one row per
 * accepted ISBN, in upload order; the others join on (job, ISBN), one row each.
 */
export function comparisonTable(job: JobRow, opts: ComparisonOptions): SQL {
  const asked = MARKETPLACE_LIST.filter((m) => job[m.id]);
  const base = baseMarketplace(job);
  const isAsked = (id: MarketplaceId) => asked.some((m) => m.id === id);

  const joins = asked
    .filter((m) => m.id !== base.id)
    .map(
      (m) =>
        sql` LEFT JOIN ${sql.identifier(m.table)} AS ${sql.identifier(m.id)} ON ${column(m.id, 'isbn_lookup_job_id')} = ${job.id} AND ${column(m.id, 'isbn')} = ${column(base.id, 'isbn')}`,
    );
  const decisions = decisionJoin(job, base.id, opts.decisions ?? true);
  const stored = opts.stored
    ? {
        columns: sql`, ${STORED}.best_price AS stored_best_price, ${STORED}.best_source AS stored_best_source, ${STORED}.spread AS stored_spread`,
        join: sql` JOIN ${comparisonRows} AS ${STORED} ON ${STORED}.job_id = ${job.id} AND ${STORED}.row_id = ${column(base.id, 'id')}`,
      }
    : { columns: sql``, join: sql`` };
  // OFFSET 0 keeps the primary-key pick a subquery of its own, planned before (not merged into) the joins.
  const baseRows = opts.rowIds
    ? sql`(SELECT * FROM ${sql.identifier(base.table)} WHERE id = ANY(${sql.param(opts.rowIds.map(String))}::bigint[]) OFFSET 0) AS ${sql.identifier(base.id)}`
    : sql`${sql.identifier(base.table)} AS ${sql.identifier(base.id)}`;
  const only = opts.only ? sql` AND ${opts.only({ id: column(base.id, 'id'), isbn: column(base.id, 'isbn') })}` : sql``;
  const velocity = velocityJoin(column(base.id, 'isbn'));
  const titles = asked.filter((m) => m.fields.some((f) => f.name === 'title')).map((m) => column(m.id, 'title'));

  const prices = PRICE_SOURCES.map((s) => ({ source: s, ...priceOf(s, isAsked(s.marketplace)) }));
  const perSource = prices.flatMap(({ source, price, currency }) => [
    sql`${price} AS ${sql.identifier(priceField(source.marketplace))}`,
    sql`${currency} AS ${sql.identifier(currencyField(source.marketplace))}`,
    sql`${textOrNull(isAsked(source.marketplace), column(source.marketplace, 'lookup_status'))} AS ${sql.identifier(statusField(source.marketplace))}`,
    ...historyColumns(source.marketplace, isAsked(source.marketplace)),
  ]);
  const extras = EXTRA_COLUMNS.map(
    (e) => sql`${isAsked(e.marketplace) ? column(e.marketplace, e.column) : sql`NULL::double precision`} AS ${sql.identifier(e.name)}`,
  );
  // Each advising marketplace's decision, value and status (its entry's `decision`).
  const advice = DECISION_SOURCES.flatMap((d) => {
    const on = isAsked(d.marketplace);
    return [
      sql`${textOrNull(on, column(d.marketplace, d.decision))} AS ${sql.identifier(decisionField(d.marketplace))}`,
      sql`${on ? column(d.marketplace, d.value) : sql`NULL::double precision`} AS ${sql.identifier(valueField(d.marketplace))}`,
      sql`${textOrNull(on, column(d.marketplace, 'lookup_status'))} AS ${sql.identifier(statusField(d.marketplace))}`,
    ];
  });

  // Level 1: the joined columns. Level 2: each source's price when it is in the comparison currency.
  // Level 3: best, worst, which source is best, the spread (only with two or more prices to compare).
  // Open Library's title first (book_details), then the marketplaces' titles where it has none.
  const inner = sql`SELECT ${column(base.id, 'id')} AS id, ${column(base.id, 'isbn')} AS isbn,
      coalesce(bd.title${titles.length ? sql`, ${sql.join(titles, sql`, `)}` : sql``}) AS title,
      bd.authors AS author, bd.publisher AS publisher, bd.publish_year::double precision AS publish_year,
      ${sql.join([...perSource, ...extras, velocity.columns, ...advice, decisions.columns], sql`, `)}${stored.columns}
    FROM ${baseRows}${sql.join(joins, sql``)}${decisions.join}${stored.join}
      LEFT JOIN ${bookDetails} AS bd ON bd.isbn = ${column(base.id, 'isbn')}${velocity.join}
    WHERE ${column(base.id, 'isbn_lookup_job_id')} = ${job.id}${only}`;

  const comparable = (id: MarketplaceId) =>
    sql`CASE WHEN ${sql.identifier(currencyField(id))} = ${COMPARISON_CURRENCY} THEN ${sql.identifier(priceField(id))} END`;
  const usd = PRICE_SOURCES.map((s) => ({ id: s.marketplace, value: comparable(s.marketplace) }));
  const withUsd = sql`SELECT c.*, ${sql.join(
    [...usd.map((u) => sql`${u.value} AS ${sql.identifier(`${u.id}_usd`)}`), ...PRICE_SOURCES.flatMap((s) => changeColumns(s.marketplace))],
    sql`, `,
  )} FROM (${inner}) c`;

  const usdCols = usd.map((u) => sql.identifier(`${u.id}_usd`));
  const computedBest = sql`LEAST(${sql.join(usdCols, sql`, `)})`;
  const best = opts.stored ? sql`stored_best_price` : computedBest;
  const previousBest = sql`LEAST(${sql.join(
    usd.map((u) => sql.identifier(`${u.id}_previous_usd`)),
    sql`, `,
  )})`;
  const worst = sql`GREATEST(${sql.join(usdCols, sql`, `)})`;
  const pricedCount = sql.join(
    usdCols.map((c) => sql`(${c} IS NOT NULL)::int`),
    sql` + `,
  );
  // Ties go to the first marketplace in the registry's order.
  const computedBestSource = sql`CASE ${sql.join(
    usd.map((u) => sql`WHEN ${sql.identifier(`${u.id}_usd`)} = ${best} THEN ${MARKETPLACES[u.id].label}::text`),
    sql` `,
  )} END`;
  const bestSource = opts.stored ? sql`stored_best_source` : computedBestSource;
  const profit = profitAt(job, best, bestSource, opts.fees);
  const outputs = [
    sql`id`,
    sql`isbn`,
    sql`title`,
    sql`author`,
    sql`publisher`,
    sql`publish_year`,
    ...PRICE_SOURCES.flatMap((s) =>
      [
        priceField(s.marketplace),
        currencyField(s.marketplace),
        statusField(s.marketplace),
        changeField(s.marketplace),
        offersField(s.marketplace),
      ].map((n) => sql.identifier(n)),
    ),
    sql`${best} AS best_price`,
    // Empty when either side has no USD price (LEAST ignores NULLs; minus a NULL is NULL).
    sql`${cents(sql`${dec(best)} - ${dec(previousBest)}`)} AS ${sql.identifier(BEST_PRICE_CHANGE)}`,
    sql`${bestSource} AS best_source`,
    opts.stored
      ? sql`stored_spread AS spread`
      : sql`CASE WHEN ${pricedCount} >= 2 THEN ${cents(sql`${dec(worst)} - ${dec(best)}`)} END AS spread`,
    sql`${profit} AS estimated_profit`,
    ...EXTRA_COLUMNS.map((e) => sql.identifier(e.name)),
    ...VELOCITY_OUTPUTS,
    ...DECISION_SOURCES.flatMap((d) =>
      [decisionField(d.marketplace), valueField(d.marketplace), statusField(d.marketplace)].map((n) => sql.identifier(n)),
    ),
    sql.identifier(DECISION_FIELD),
    sql.identifier(DECISION_RANK),
  ];
  return sql`(SELECT ${sql.join(outputs, sql`, `)} FROM (${withUsd}) u) comparison`;
}

/**
 * A number as exact decimal SQL, NULL written out: the CSV export inlines parameters into COPY, where
 * a null parameter would read as text. Sent as its shortest decimal text (0.153 stays 0.153).
 */
const decimal = (v: number | null) => (v === null ? sql`NULL::numeric` : sql`${String(v)}::numeric`);

/**
 * Selling at `best` (USD) on `bestSource` (its label): less that source's fee (its commission, a
 * percent of the price, which includes shipping where the marketplace gives it as AbeBooks'
 * commission does, within its per-item bounds — GREATEST/LEAST skip a NULL bound — plus a fixed
 * fee), plus its shipping credit. The estimated profit then subtracts the job's cost per book. Same
 * formula as estimatedProfit in @app/domain/fees. Reads only the best price and its source, so the
 * stored comparison sorts by profit within its own table.
 */
export function afterFeesAt(best: SQL, bestSource: SQL, fees: FeeSchedules): SQL {
  return sql`CASE ${bestSource} ${sql.join(
    PRICE_SOURCES.map((s) => {
      const label = sql`${MARKETPLACES[s.marketplace].label}::text`;
      const f = fees[s.marketplace];
      if (!f) return sql`WHEN ${label} THEN ${dec(best)}`;
      const commission = sql`LEAST(GREATEST(${dec(best)} * ${decimal(f.percent)} / 100, ${decimal(f.min_commission)}), ${decimal(f.max_commission)})`;
      return sql`WHEN ${label} THEN ${dec(best)} - ${commission} - ${decimal(f.fixed)} + ${decimal(f.shipping_credit)}`;
    }),
    sql` `,
  )} END`;
}

/** The estimated profit of selling at `best` on `bestSource`, after fees and the job's cost per book, in cents. */
export const profitAt = (job: JobRow, best: SQL, bestSource: SQL, fees: FeeSchedules) =>
  cents(sql`${afterFeesAt(best, bestSource, fees)} - ${decimal(job.cost_per_book ?? 0)}`);

/**
 * The job's stored decisions (decisions/judge.ts) as the `decision` column and its rule-order rank.
 * A judged job joins them INNER: judging writes one decision for every comparison row in one
 * transaction and a job's rows never change after it is created, so no row is lost, and the planner
 * may then start from job_decisions' indexes for a filter or a sort by decision (a LEFT JOIN would
 * make it compute all 150k rows first). Never judged (or while judging), the columns are empty.
 */
function decisionJoin(job: JobRow, baseId: MarketplaceId, wanted: boolean): { columns: SQL; join: SQL } {
  if (!wanted || !job.judged_at)
    return { columns: sql`NULL::text AS ${sql.identifier(DECISION_FIELD)}, NULL::int AS ${sql.identifier(DECISION_RANK)}`, join: sql`` };
  return {
    columns: sql`jd.outcome::text AS ${sql.identifier(DECISION_FIELD)}, jd.rule_index AS ${sql.identifier(DECISION_RANK)}`,
    join: sql` JOIN ${jobDecisions} AS jd ON jd.job_id = ${job.id} AND jd.row_id = ${column(baseId, 'id')}`,
  };
}

/**
 * Level 1 columns of price history for one price source: the answer's offer count (NULL when it
 * was not answered: failed or never looked up; a stored count, since opening every row's offers
 * made the whole comparison several times slower) and the previous look's price and currency
 * (internal, for changeColumns).
 */
function historyColumns(id: MarketplaceId, asked: boolean): SQL[] {
  return [
    sql`${asked ? column(id, 'offer_count') : sql`NULL::int`} AS ${sql.identifier(offersField(id))}`,
    sql`${asked ? column(id, 'previous_price') : sql`NULL::double precision`} AS ${sql.identifier(`${id}_previous_price`)}`,
    sql`${textOrNull(asked, column(id, 'previous_currency'))} AS ${sql.identifier(`${id}_previous_currency`)}`,
  ];
}

/** Level 2: the change since the previous look (only between prices in one currency) and the previous price when in USD (for best_price_change). */
function changeColumns(id: MarketplaceId): SQL[] {
  const [price, currency] = [sql.identifier(priceField(id)), sql.identifier(currencyField(id))];
  const [previous, previousCurrency] = [sql.identifier(`${id}_previous_price`), sql.identifier(`${id}_previous_currency`)];
  return [
    sql`CASE WHEN ${currency} = ${previousCurrency} THEN ${cents(sql`${dec(price)} - ${dec(previous)}`)} END AS ${sql.identifier(changeField(id))}`,
    sql`CASE WHEN ${previousCurrency} = ${COMPARISON_CURRENCY} THEN ${previous} END AS ${sql.identifier(`${id}_previous_usd`)}`,
  ];
}

/** `FROM <base table> WHERE job`: the job's ISBNs, without the joins (for an unfiltered count). */
export function comparisonBase(job: JobRow): SQL {
  return sql`FROM ${sql.identifier(baseMarketplace(job).table)} WHERE isbn_lookup_job_id = ${job.id}`;
}

/**
 * `FROM <the job's decisions> WHERE …`: a count of a judged job's rows filtered on the decision
 * alone, from job_decisions' index without the marketplaces' joins (one decision per comparison row).
 */
export function decisionsBase(job: JobRow, where: SQL): SQL {
  return sql`FROM (SELECT outcome::text AS ${sql.identifier(DECISION_FIELD)} FROM ${jobDecisions} WHERE job_id = ${job.id}) comparison WHERE ${where}`;
}
