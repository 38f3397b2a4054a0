// Which of the migrations this build ships the database has not applied (drizzle's migrators keep
// the hash of each applied file in drizzle.__drizzle_migrations, on PGlite and PostgreSQL alike).
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { MIGRATIONS_FOLDER, type Db } from '../db/client.ts';
import { postgresErrorCode } from '../db/postgres-error.ts';

export class MigrationCheck {
  /** Read once: the migrations folder does not change under a running process. */
  private readonly shipped = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((m) => m.hash);

  constructor(private readonly db: Db) {}

  /**
   * How many shipped migrations the database lacks, in one statement (on the embedded database each
   * statement of a health check waits its turn on the one session). Throws when the database cannot
   * be reached.
   */
  async missing(): Promise<number> {
    let rows: { hash: string }[];
    try {
      ({ rows } = await this.db.execute<{ hash: string }>(sql`SELECT hash FROM drizzle.__drizzle_migrations`));
    } catch (err) {
      // Never migrated at all: no bookkeeping table (undefined_table, or its schema: invalid_schema_name).
      if (['42P01', '3F000'].includes(postgresErrorCode(err) ?? '')) return this.shipped.length;
      throw err;
    }
    const applied = new Set(rows.map((r) => r.hash));
    return this.shipped.filter((hash) => !applied.has(hash)).length;
  }
}
