// Turns filters and a sort from the API into SQL, checked against a field table.
// Field names are whitelisted by the table and written with sql.identifier; values are bound parameters.
import { must } from '@app/domain/must';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { NUMBER_OPERATORS, TEXT_OPERATORS, type FieldDef, type Filter } from '@app/domain/fields';
import { filterValueProblem, parseFilterDate, parseFilterNumber } from '@app/domain/filter-values';
import { Paging } from './api-schemas.ts';
import { HttpError, type ValidationIssue, validationError } from './http-errors.ts';

export const FilterSchema = z
  .object({
    field: z.string().max(100),
    operator: z.string().max(20),
    value: z.union([z.string().max(500), z.number()]).transform((v) => String(v)),
  })
  .meta({ id: 'Filter' });

export const FiltersBody = z.object({ filters: z.array(FilterSchema).max(50).default([]) }).meta({ id: 'FiltersBody' });

export const SortQuery = Paging.extend({
  sort_by: z.string().max(100).optional(),
  sort_direction: z.enum(['asc', 'desc']).optional(),
});

/** A CSV download's body: the list's filters and sort (it has no pages). */
export const ExportBody = FiltersBody.extend({
  sort_by: z.string().max(100).optional(),
  sort_direction: z.enum(['asc', 'desc']).optional(),
}).meta({ id: 'ExportBody' });

// The body's operators are checked against the field table by filtersToSql (unknown → 422 naming
// it); until then they are plain strings, which is all the query builder reads of them.
export const asFilters = (filters: z.infer<typeof FiltersBody>['filters']) => filters as Filter[];

/** The SQL types a filter's value is compared as. */
export type FilterValueType = 'double precision' | 'numeric' | 'text' | 'timestamptz';

/**
 * How a filter's value enters the SQL: a bound parameter (`asParameter`, whose type PostgreSQL
 * infers from the column), or an expression of `type` (a watch's evaluation reads each watch's
 * values from its row, so watches whose conditions differ only in values share one text:
 * watches/evaluate.ts).
 */
export type BindValue = (value: string | number | Date, type: FilterValueType) => SQL;

export const asParameter: BindValue = (value) => sql`${value}`;

/**
 * Builds the WHERE conditions (undefined when there are none); every problem becomes a 422 naming
 * the filter and its part. Columns come from the field table (`sql.identifier`), values are bound
 * (`bind`: parameters by default).
 */
export function filtersToSql(
  fields: readonly FieldDef[],
  filters: Filter[] | { field: string; operator: string; value: string }[],
  bind: BindValue = asParameter,
): SQL | undefined {
  const issues: ValidationIssue[] = [];
  const conditions: SQL[] = [];
  for (const [i, f] of filters.entries()) {
    const loc = ['body', 'filters', i];
    const def = fields.find((d) => d.name === f.field && d.filterable);
    if (!def) {
      issues.push({ loc: [...loc, 'field'], msg: `Unknown filter field '${f.field}'`, type: 'value_error' });
      continue;
    }
    const allowed: readonly string[] = def.type === 'text' ? TEXT_OPERATORS : NUMBER_OPERATORS;
    if (!allowed.includes(f.operator)) {
      issues.push({
        loc: [...loc, 'operator'],
        msg: `Operator '${f.operator}' is not allowed for field '${f.field}' (allowed: ${allowed.join(', ')})`,
        type: 'value_error',
      });
      continue;
    }
    const col = sql.identifier(def.name);
    if (def.type === 'text') {
      if (f.operator === 'equals') conditions.push(sql`${col} = ${bind(f.value, 'text')}`);
      else conditions.push(sql`${col} ILIKE ${bind(`%${escapeLike(f.value)}%`, 'text')}`);
      continue;
    }
    const problem = filterValueProblem(def, f.value);
    if (problem) {
      issues.push({ loc: [...loc, 'value'], msg: problem, type: 'value_error' });
      continue;
    }
    const op = sql.raw(must(SQL_OPS[f.operator], 'an operator checked above'));
    if (def.type === 'number') {
      const n = must(parseFilterNumber(f.value), 'a value checked above');
      // A whole number in int4's range compares as the column's own type (its index serves it); a
      // fraction or a larger number compares as numeric, so an integer column never sees a value it
      // cannot hold (that was a database error, i.e. a 500).
      if (Number.isInteger(n) && Math.abs(n) <= 2_147_483_647) conditions.push(sql`${col} ${op} ${bind(n, 'double precision')}`);
      else conditions.push(sql`${col}::numeric ${op} ${bind(String(n), 'numeric')}::numeric`);
      continue;
    }
    // Dates: a bare day compares whole days (UTC); a full timestamp compares instants.
    const { start, wholeDay } = must(parseFilterDate(f.value), 'a value checked above');
    if (wholeDay) {
      // The day's end is computed by PostgreSQL: after 9999-12-31 comes year 10000, which a
      // JavaScript Date writes as "+010000-…" (text PostgreSQL cannot read) but a timestamp holds.
      const next = sql`(${bind(start, 'timestamptz')}::timestamptz + interval '1 day')`;
      // Only the chosen bound may add parameters: an unused $n would be an untyped parameter.
      const bounds: Record<string, () => SQL> = {
        equals: () => sql`${col} >= ${bind(start, 'timestamptz')} AND ${col} < ${next}`,
        gt: () => sql`${col} >= ${next}`,
        gte: () => sql`${col} >= ${bind(start, 'timestamptz')}`,
        lt: () => sql`${col} < ${bind(start, 'timestamptz')}`,
        lte: () => sql`${col} < ${next}`,
      };
      conditions.push(sql`(${must(bounds[f.operator], 'an operator checked above')()})`);
    } else conditions.push(sql`${col} ${op} ${bind(start, 'timestamptz')}`);
  }
  if (issues.length) throw validationError(issues);
  return conditions.length ? sql.join(conditions, sql` AND `) : undefined;
}

const SQL_OPS: Record<string, string> = { equals: '=', gt: '>', lt: '<', gte: '>=', lte: '<=' };

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * One key of a list's order. `nulls` is written only where the ORDER BY writes it; otherwise
 * PostgreSQL's default applies (empties last ascending, first descending). `nullable` says whether
 * the column can hold NULL at all (the keyset export runs NULLs as their own stretch).
 */
export interface SortKey {
  column: string;
  direction: 'asc' | 'desc';
  nulls?: 'last';
  nullable: boolean;
}

/**
 * The order for a whitelisted sort key; default created_at descending. The last key is always the
 * unique `id`, so the order is total: pages (and keyset exports, db/keyset.ts) are stable.
 */
export function sortKeys(fields: readonly FieldDef[], sortBy: string | undefined, direction: 'asc' | 'desc' | undefined): SortKey[] {
  const key = sortBy ?? 'created_at';
  const def = fields.find((d) => d.name === key && d.sortable);
  if (!def) throw validationError(['query', 'sort_by'], `Unknown sort field '${key}'`);
  const dir = direction ?? (sortBy ? 'asc' : 'desc');
  const id: SortKey = { column: 'id', direction: dir, nullable: false };
  if (def.sortColumn) return [{ column: def.sortColumn, direction: dir, nullable: true }, id];
  if (def.name === 'id') return [id];
  // Empty values sort last either way; NOT NULL columns keep the plain form so their indexes serve the sort.
  return [
    def.required
      ? { column: def.name, direction: dir, nullable: false }
      : { column: def.name, direction: dir, nulls: 'last', nullable: true },
    id,
  ];
}

/** The ORDER BY of sort keys. */
export function orderBySql(keys: readonly SortKey[]): SQL {
  return sql.join(
    keys.map((k) => sql`${sql.identifier(k.column)} ${sql.raw(k.direction.toUpperCase())}${sql.raw(k.nulls ? ' NULLS LAST' : '')}`),
    sql`, `,
  );
}

/** ORDER BY for a whitelisted sort key (sortKeys). */
export function sortToSql(fields: readonly FieldDef[], sortBy: string | undefined, direction: 'asc' | 'desc' | undefined): SQL {
  return orderBySql(sortKeys(fields, sortBy, direction));
}

/**
 * Conditions (AND) as SQL over the comparison's columns, or undefined when they can never match: a
 * rule's (decisions/rules-sql.ts) and a watch's (watches/evaluate.ts, whose `fields` add the decision), so a watch and a
 * rule with the same conditions hold on the same rows.
 */
export function conditionsSql(
  conditions: { field: string; operator: string; value: string }[],
  fields: readonly FieldDef[],
  bind: BindValue = asParameter,
): SQL | undefined {
  if (conditions.length === 0) return sql`TRUE`;
  try {
    return filtersToSql(fields, conditions, bind);
  } catch (err) {
    // filtersToSql says 422 for anything it cannot turn into SQL: here that means "never matches".
    if (err instanceof HttpError) return undefined;
    throw err;
  }
}
