// API replicas and workers start together on a fresh PostgreSQL database (compose.yaml does exactly
// that): each runs the migrations at start, and each API makes sure the first superuser exists; none
// may fail because another is doing the same at that moment.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from '../src/db/client.ts';
import { ensureFirstSuperuser } from '../src/users/first-superuser.ts';
import { countRows, createPgDatabase, openTestDatabase } from './helpers/databases.ts';

describe('processes starting together on PostgreSQL', () => {
  const drops: Array<() => Promise<void>> = [];
  afterAll(() => Promise.all(drops.map((drop) => drop())));

  it('four processes opening one fresh database at once all start, and the migrations run once', async () => {
    const { url, drop } = await createPgDatabase('migrate');
    drops.push(drop);
    const opened = await Promise.allSettled([0, 1, 2, 3].map(() => openDatabase({ url, poolSize: 2, exportPoolSize: 1 })));
    const failed = opened.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
    for (const o of opened) if (o.status === 'fulfilled') await o.value.close();
    expect(failed).toEqual([]);

    const check = await openDatabase({ url, poolSize: 1, exportPoolSize: 1 });
    try {
      const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
      const { rows } = await check.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
      expect(rows[0]?.n).toBe(journal.entries.length);
      expect(await countRows(check.db, 'users')).toBe(0);
    } finally {
      await check.close();
    }
  });

  it('three API processes making sure of the first superuser at once: all start, one creates it', async () => {
    const t = await openTestDatabase('pg', { prefix: 'superuser' });
    drops.push(() => t.cleanup());
    const started = await Promise.allSettled([0, 1, 2].map(() => ensureFirstSuperuser(t.db, 'first@example.com', 'a long password')));
    expect(started.filter((s) => s.status === 'rejected')).toEqual([]);
    expect(started.filter((s) => s.status === 'fulfilled' && s.value.created)).toHaveLength(1);
    expect(await countRows(t.db, 'users')).toBe(1);
  });
});
