// The CSV formula guard exists twice: in JavaScript for PGlite's paged export and in SQL for
// PostgreSQL's COPY. Every first character must be treated alike by both, on both engines.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeCsvCell, safeCsvCellSql } from '../src/lib/csv.ts';
import { ENGINES, openTestDatabase, type TestDatabase } from './helpers/databases.ts';

// Every ASCII character but NUL (PostgreSQL text cannot hold it), a few lookalikes, and the empty string.
const CELLS = [...Array.from({ length: 127 }, (_, i) => `${String.fromCharCode(i + 1)}1+1`), '\u00a0=1', '\uff1d1', '\u2212' + '1', ''];

describe.each(ENGINES)('the CSV formula guard on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(engine);
  });
  afterAll(() => t.cleanup());

  it('guards in SQL exactly the cells it guards in JavaScript', async () => {
    const { rows } = await t.db.execute<{ cell: string; guarded: string }>(
      sql`SELECT cell, ${safeCsvCellSql(sql`cell`)} AS guarded
          FROM jsonb_array_elements_text(${JSON.stringify(CELLS)}::jsonb) WITH ORDINALITY AS c(cell, n) ORDER BY n`,
    );
    expect(rows.map((r) => r.guarded)).toEqual(CELLS.map(safeCsvCell));
    // And the guard does something: the six formula starts are prefixed.
    expect(CELLS.filter((c) => safeCsvCell(c) !== c).map((c) => c.charCodeAt(0))).toEqual([9, 13, 43, 45, 61, 64]);
  });
});
