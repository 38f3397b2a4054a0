// The order each stretch of a keyset export is read in: the list's order without a NULLS clause, so
// that a (key, id) index walked either way serves it (the export test proves the rows come out in the
// list's order on both engines; this one holds the statements' shape).
import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { Keyset } from './keyset.ts';
import type { SortKey } from '../lib/filter-sql.ts';

const dialect = new PgDialect();
const text = (keyset: Keyset) => dialect.sqlToQuery(keyset.orderBy()).sql;

/** The orders of every stretch, read as an export reads them (each stretch ends with a short page). */
function stretchOrders(keys: SortKey[]): string[] {
  const keyset = new Keyset(keys);
  const orders: string[] = [];
  while (keyset.next()) {
    orders.push(text(keyset));
    keyset.advance(undefined);
  }
  return orders;
}

const id = (direction: 'asc' | 'desc'): SortKey => ({ column: 'id', direction, nullable: false });

describe('Keyset.orderBy', () => {
  it('reads a descending nullable key with empty values last as the valued rows by (key, id), then the empty ones by id', () => {
    const price: SortKey = { column: 'price', direction: 'desc', nulls: 'last', nullable: true };
    expect(stretchOrders([price, id('desc')])).toEqual(['"price" DESC, "id" DESC', '"id" DESC']);
  });

  it("keeps PostgreSQL's own place for NULLs (first descending) when the list does not move them", () => {
    const rank: SortKey = { column: 'rank', direction: 'desc', nullable: true };
    expect(stretchOrders([rank, id('desc')])).toEqual(['"id" DESC', '"rank" DESC, "id" DESC']);
  });

  it('reads an ascending nullable key as the valued rows, then the empty ones', () => {
    const title: SortKey = { column: 'title', direction: 'asc', nulls: 'last', nullable: true };
    expect(stretchOrders([title, id('asc')])).toEqual(['"title" ASC, "id" ASC', '"id" ASC']);
  });

  it('reads a key that is never empty, or the id alone, in one stretch', () => {
    const created: SortKey = { column: 'created_at', direction: 'desc', nullable: false };
    expect(stretchOrders([created, id('desc')])).toEqual(['"created_at" DESC, "id" DESC']);
    expect(stretchOrders([id('asc')])).toEqual(['"id" ASC']);
  });
});
