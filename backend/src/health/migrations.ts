// Which of the migrations this build ships the database has not applied (drizzle's migrators keep
// the hash of each applied file in drizzle.__drizzle_migrations, on PGlite and PostgreSQL alike).
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { MIGRATIONS_FOLDER, type Db } from '../db/client.ts';

export class MigrationCheck {
  /** Read once: the migrations folder does not change under a running process. */
  private readonly shipped = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((m) => m.hash);

  constructor(private readonly db: Db) {}

  /** How many shipped migrations the database lacks. Throws when the database cannot be reached. */
  async missing(): Promise<number> {
    const { rows } = await this.db.execute<{ applied: string[] | null }>(sql`
      SELECT (SELECT array_agg(hash) FROM drizzle.__drizzle_migrations) AS applied
      WHERE to_regclass('drizzle.__drizzle_migrations') IS NOT NULL`);
    const applied = new Set(rows[0]?.applied ?? []);
    return this.shipped.filter((hash) => !applied.has(hash)).length;
  }
}
