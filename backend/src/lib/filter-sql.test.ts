import { describe, expect, it } from 'vitest';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { JOB_FIELDS } from '@app/domain/jobs';
import { filtersToSql as toSql, sortToSql as sortSql } from './filter-sql.ts';
import { HttpError } from './http-errors.ts';

const placeholders = (sql: string) => new Set(sql.match(/\$\d+/g)).size;

// The fragments as PostgreSQL receives them: text with $n placeholders, and the bound values.
const dialect = new PgDialect();
const filtersToSql = (...args: Parameters<typeof toSql>) => {
  const { sql, params } = dialect.sqlToQuery(toSql(...args)!);
  return { where: sql, params };
};
const sortToSql = (...args: Parameters<typeof sortSql>) => dialect.sqlToQuery(sortSql(...args) as SQL).sql;

describe('filtersToSql', () => {
  it.each(['equals', 'gt', 'gte', 'lt', 'lte'])('uses exactly the parameters it adds for a whole-day %s', (operator) => {
    const { where, params } = filtersToSql(JOB_FIELDS, [{ field: 'created_at', operator, value: '2026-01-02' }]);
    expect(placeholders(where)).toBe(params.length);
    expect(params.every((p) => p instanceof Date)).toBe(true);
  });

  it('compares whole UTC days', () => {
    const gt = filtersToSql(JOB_FIELDS, [{ field: 'created_at', operator: 'gt', value: '2026-01-02' }]);
    // The day's end is the day's start + 1 day in SQL (a JavaScript Date cannot write year 10000).
    expect(gt.where).toBe(`("created_at" >= ($1::timestamptz + interval '1 day'))`);
    expect((gt.params[0] as Date).toISOString()).toBe('2026-01-02T00:00:00.000Z');
    const lte = filtersToSql(JOB_FIELDS, [{ field: 'created_at', operator: 'lte', value: '2026-01-02' }]);
    expect(lte.where).toBe(`("created_at" < ($1::timestamptz + interval '1 day'))`);
    expect((lte.params[0] as Date).toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });

  it('escapes LIKE wildcards in contains and keeps values as parameters', () => {
    const { where, params } = filtersToSql(JOB_FIELDS, [{ field: 'name', operator: 'contains', value: "50%_off'; DROP" }]);
    expect(where).toBe('"name" ILIKE $1');
    expect(params).toEqual(["%50\\%\\_off'; DROP%"]);
  });

  it('collects every problem in one 422', () => {
    try {
      filtersToSql(JOB_FIELDS, [
        { field: 'nope', operator: 'equals', value: '' },
        { field: 'id', operator: 'contains', value: '1' },
        { field: 'created_at', operator: 'gt', value: 'yesterday' },
      ]);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).statusCode).toBe(422);
      expect(((err as HttpError).detail as { loc: unknown[] }[]).map((d) => d.loc.at(-1))).toEqual(['field', 'operator', 'value']);
    }
  });
});

describe('sortToSql', () => {
  it('defaults to newest first with a stable tiebreak', () => {
    expect(sortToSql(JOB_FIELDS, undefined, undefined)).toBe('"created_at" DESC, "id" DESC');
    expect(sortToSql(JOB_FIELDS, 'name', 'asc')).toBe('"name" ASC, "id" ASC');
    expect(sortToSql(JOB_FIELDS, 'id', 'desc')).toBe('"id" DESC');
  });
});
