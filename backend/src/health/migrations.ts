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
    // Asked apart: a statement naming a table that does not exist fails as it is planned.
    const { rows: table } = await this.db.execute<{ present: boolean }>(
      sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`,
    );
    if (!table[0]?.present) return this.shipped.length;
    const { rows } = await this.db.execute<{ hash: string }>(sql`SELECT hash FROM drizzle.__drizzle_migrations`);
    const applied = new Set(rows.map((r) => r.hash));
    return this.shipped.filter((hash) => !applied.has(hash)).length;
  }
}
