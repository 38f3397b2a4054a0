// CSV cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR) get a leading apostrophe,
// so an exported file cannot execute anything when a user opens it (CSV injection). The same rule in
// JavaScript (pages of rows on PGlite) and in SQL (COPY on PostgreSQL); a test holds them equal.
import { sql, type SQL } from 'drizzle-orm';

const FORMULA_START = /^[=+\-@\t\r]/;

export function safeCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** safeCsvCell in SQL over a text column, for COPY. */
export const safeCsvCellSql = (col: SQL) => sql`CASE WHEN ${col} ~ '^[=+@\\t\\r-]' THEN '''' || ${col} ELSE ${col} END`;
