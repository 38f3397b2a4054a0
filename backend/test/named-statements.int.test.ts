// Named statements on PostgreSQL (db/named-statement.ts): a transaction's connection keeps at most
// a bounded number, so a worker that runs the write-back for hours with texts that vary (its watches'
// conditions) does not grow the server's memory without end; one dropped runs again when asked.
// PostgreSQL alone: PGlite keeps no named statements.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../src/db/client.ts';
import { executeNamed } from '../src/db/named-statement.ts';
import { openTestDatabase, type TestDatabase } from './helpers/databases.ts';

describe('named statements on pg', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase('pg', { poolSize: 1 });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  /** The i-th of several texts, each with a value sent apart from it. */
  const statement = (i: number, value: number) => sql`SELECT ${value}::int + ${sql.raw(String(i))} AS n`;
  const kept = async (tx: Tx) =>
    (await tx.execute<{ name: string }>(sql`SELECT name FROM pg_prepared_statements ORDER BY name`)).rows.map((r) => r.name);

  it('keeps at most the bound on one connection, dropping the least recently run, and runs a dropped one again', async () => {
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) expect(await executeNamed<{ n: number }>(tx, statement(i, 10), 3)).toEqual([{ n: 10 + i }]);
      expect(await kept(tx)).toHaveLength(3);
      // Statement 2 run again becomes the most recent: statement 3 is the next to go, not 2.
      expect(await executeNamed<{ n: number }>(tx, statement(2, 20), 3)).toEqual([{ n: 22 }]);
      const before = await kept(tx);
      expect(await executeNamed<{ n: number }>(tx, statement(0, 30), 3)).toEqual([{ n: 30 }]);
      const after = await kept(tx);
      expect(after).toHaveLength(3);
      expect(after.filter((name) => !before.includes(name))).toHaveLength(1);
      expect(before.filter((name) => !after.includes(name))).toHaveLength(1);
    });
    // The same connection (a pool of one) in a later transaction: what it dropped it prepares again.
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) expect(await executeNamed<{ n: number }>(tx, statement(i, 1), 3)).toEqual([{ n: 1 + i }]);
      expect(await kept(tx)).toHaveLength(3);
    });
  });

  it('runs the same text as one statement, planned once, whatever its values', async () => {
    await t.db.transaction(async (tx) => {
      for (let v = 0; v < 4; v++) expect(await executeNamed<{ n: number }>(tx, statement(100, v))).toEqual([{ n: 100 + v }]);
      const { rows } = await tx.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%+ 100 AS n%'`,
      );
      expect(rows[0]?.n).toBe(1);
    });
  });

  it('a statement that fails leaves its transaction to fail, with the error the server gave', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await executeNamed(tx, sql`SELECT 1 / ${0}::int AS n`, 1);
      }),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/division by zero/) } });
    // The connection still works, and a later run drops what that left past the bound.
    await t.db.transaction(async (tx) => {
      expect(await executeNamed<{ n: number }>(tx, statement(7, 1), 1)).toEqual([{ n: 8 }]);
      expect(await kept(tx)).toHaveLength(1);
    });
  });
});
