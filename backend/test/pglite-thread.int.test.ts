// Embedded PGlite on its own thread (db/pglite-thread.ts), as the API runs it: the same answers as
// in process (rows, dates, errors with their PostgreSQL codes, transactions, notifications, COPY), and
// the API's thread keeps running while a statement does.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import type { EmbeddedEngine } from '../src/db/embedded-engine.ts';
import { users } from '../src/db/schema.ts';
import { buildApp } from '../src/app.ts';
import { createContext } from '../src/core/create-context.ts';
import { silentLogger, testConfig } from './helpers/app.ts';

let database: Database;
let engine: EmbeddedEngine;

beforeAll(async () => {
  database = await openDatabase({ thread: true });
  engine = (database.db as unknown as { $client: EmbeddedEngine }).$client;
});
afterAll(() => database.close());

describe('PGlite on its own thread', () => {
  it('answers the query builder and raw SQL as in process: rows, dates and numbers', async () => {
    const [row] = await database.db.insert(users).values({ email: 'thread@example.com', hashed_password: 'x' }).returning();
    expect(row?.email).toBe('thread@example.com');
    expect(row?.created_at).toBeInstanceOf(Date);
    const raw = await database.db.execute<{ n: number; big: number; dec: number }>(
      sql`SELECT count(*)::int AS n, 9007199254740::int8 AS big, 12.34::numeric AS dec FROM users`,
    );
    expect(raw.rows).toEqual([{ n: 1, big: 9007199254740, dec: 12.34 }]);
  });

  it('keeps a PostgreSQL error code and detail across the thread', async () => {
    const err = await database.db
      .insert(users)
      .values({ email: 'thread@example.com', hashed_password: 'x' })
      .then(() => undefined)
      .catch((e: unknown) => e as Error & { cause?: { code?: string; detail?: string } });
    expect(err?.cause?.code).toBe('23505');
    expect(err?.cause?.detail).toContain('thread@example.com');
  });

  it('commits a transaction whole and rolls a failed one back', async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(users).values({ email: 'kept@example.com', hashed_password: 'x' });
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(users).values({ email: 'gone@example.com', hashed_password: 'x' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const emails = (await database.db.select({ email: users.email }).from(users)).map((u) => u.email).sort();
    expect(emails).toEqual(['kept@example.com', 'thread@example.com']);
  });

  it('runs statements one at a time: a query sent during a transaction waits for its commit', async () => {
    const order: string[] = [];
    const tx = database.db.transaction(async (t) => {
      await t.execute(sql`INSERT INTO users (email, hashed_password) VALUES ('inside@example.com', 'x')`);
      order.push('inserted');
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('committing');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const outside = database.db
      .execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM users WHERE email = 'inside@example.com'`)
      .then((r) => {
        order.push('read');
        return r.rows[0]?.n;
      });
    await tx;
    expect(await outside).toBe(1);
    expect(order).toEqual(['inserted', 'committing', 'read']);
  });

  it('delivers notifications to listeners on the API thread, after the commit', async () => {
    const heard: string[] = [];
    const listening = database.listen('thread_test', { message: (p) => heard.push(p), up: () => {}, down: () => {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_notify('thread_test', 'hello')`);
      expect(heard).toEqual([]);
    });
    await expect.poll(() => heard).toEqual(['hello']);
    await listening.stop();
  });

  it("hands back COPY's output (the embedded CSV export's pages)", async () => {
    const { blob } = await engine.query(`COPY (SELECT email FROM users ORDER BY email) TO '/dev/blob' WITH (FORMAT csv)`);
    expect(await blob?.text()).toBe('inside@example.com\nkept@example.com\nthread@example.com\n');
  });

  it("keeps the API's thread running while a long statement runs", async () => {
    let turns = 0;
    let running = true;
    const spin = () => {
      if (!running) return;
      turns++;
      setImmediate(spin);
    };
    const statement = engine.query('SELECT count(*) FROM generate_series(1, 1000000)');
    spin();
    await statement;
    running = false;
    // In process the statement holds this thread from start to end: a turn or two around it at most.
    expect(turns).toBeGreaterThan(50);
  });

  it('answers readiness while a long statement holds the session, without queueing behind it', async () => {
    const ctx = await createContext(testConfig(), { database, log: silentLogger });
    const app = await buildApp(ctx);
    try {
      const ready = () => app.inject({ method: 'GET', url: '/api/v1/health/ready' });
      // Idle: readiness asks the database, and so sees the migrations applied.
      expect((await ready()).json()).toEqual({ status: 'ok' });
      const order: string[] = [];
      const statement = engine.query('SELECT count(*) FROM generate_series(1, 3000000)').then(() => order.push('statement'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(database.sessionActivity?.().busySince).not.toBeNull();
      const answer = await ready().then((r) => {
        order.push('ready');
        return r;
      });
      await statement;
      expect(answer.json()).toEqual({ status: 'ok' });
      expect(order).toEqual(['ready', 'statement']);
      expect(database.sessionActivity?.()).toMatchObject({ busySince: null, lastDoneAt: expect.any(Number) });
    } finally {
      await app.close();
    }
  });

  it('refuses statements once closed (the last test: it closes the database)', async () => {
    await database.close();
    await expect(database.db.execute(sql`SELECT 1`)).rejects.toMatchObject({ cause: { message: expect.stringContaining('closed') } });
  });
});
