// Databases on the test PostgreSQL server, made and dropped through its admin URL. No Vitest imports:
// the global setup (outside the test workers) uses this too.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.ts';

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates a database, empty or as a copy of `template`, and returns its URL and a drop function.
 * Names are unique per call, so test files running at once never share one.
 */
export async function createDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  return {
    name,
    url: databaseUrl(adminUrl, name),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/**
 * A database migrated by the app's own openDatabase, then closed to connections: PostgreSQL copies a
 * template only while no one is connected to it, so no test may open it by mistake.
 */
export async function createMigratedTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const { name, url, drop } = await createDatabase(adminUrl, 'template');
  try {
    const database = await openDatabase({ url, poolSize: 1, exportPoolSize: 1 });
    await database.close();
    await adminQuery(adminUrl, `ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
  } catch (err) {
    await drop();
    throw err;
  }
  return { name, drop };
}
