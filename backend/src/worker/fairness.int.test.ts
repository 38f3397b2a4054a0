// The queue shares a marketplace between jobs: a small job queued behind a big one is served in
// the first batches, not after the big one (PGlite and PostgreSQL).
import { param, sql } from 'drizzle-orm';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleIsbns } from '../sandbox/isbns.ts';
import { LookupQueue } from './queue.ts';
import { openWorkerTestDatabase, seedJob, type TestDatabase } from '../../test/helpers/worker.ts';
import { ENGINES } from '../../test/helpers/databases.ts';

describe.each(ENGINES)('fair claims on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openWorkerTestDatabase(engine);
  });
  afterAll(() => t.cleanup());

  it('a 10-ISBN job started after a 3,000-ISBN job is claimed in the first batch', async () => {
    const big = await seedJob(t.db, sampleIsbns(3000, 1_000_000), ['alibris']);
    const small = await seedJob(t.db, sampleIsbns(10, 9_000_000), ['alibris']);
    const queue = new LookupQueue(t.db, MARKETPLACES.alibris);
    const jobOf = async (ids: number[]) =>
      (
        await t.db.execute<{ job: number }>(sql`SELECT isbn_lookup_job_id AS job FROM alibris_price_lookups WHERE id = ANY(${param(ids)})`)
      ).rows.map((r) => r.job);

    const first = await jobOf((await queue.claim(50, 60_000)).map((r) => r.id));
    expect(first).toHaveLength(50);
    expect(first.filter((j) => j === small)).toHaveLength(10);
    expect(first.filter((j) => j === big)).toHaveLength(40);
    // With the small job served, the big one gets whole batches again.
    const second = await jobOf((await queue.claim(50, 60_000)).map((r) => r.id));
    expect(second.filter((j) => j === big)).toHaveLength(50);
  });

  it('jobs whose rows only wait for a retry never crowd out the few jobs with due rows', async () => {
    const waiting: number[] = [];
    for (let i = 0; i < 200; i++) waiting.push(await seedJob(t.db, sampleIsbns(2, 4_000_000 + i * 10), ['abe_books']));
    await t.db.execute(
      sql`UPDATE abe_books_price_lookups SET next_attempt_at = now() + interval '1 hour' WHERE isbn_lookup_job_id = ANY(${param(waiting)})`,
    );
    const due = [
      await seedJob(t.db, sampleIsbns(5, 5_000_000), ['abe_books']),
      await seedJob(t.db, sampleIsbns(5, 5_100_000), ['abe_books']),
    ];
    const queue = new LookupQueue(t.db, MARKETPLACES.abe_books);
    // Before jobs were picked by their due rows, 4 random picks out of 202 jobs found the due ones rarely.
    const claimed = await queue.claim(4, 60_000);
    expect(claimed).toHaveLength(4);
    const rest = await queue.claim(10, 60_000);
    expect(rest).toHaveLength(6);
    const { rows } = await t.db.execute<{ job: number }>(
      sql`SELECT DISTINCT isbn_lookup_job_id AS job FROM abe_books_price_lookups WHERE id = ANY(${param([...claimed, ...rest].map((r) => r.id))})`,
    );
    expect(rows.map((r) => r.job).sort()).toEqual([...due].sort());
  });

  it('two claims at once never take the same row', async () => {
    await seedJob(t.db, sampleIsbns(400, 2_000_000), ['biblio']);
    await seedJob(t.db, sampleIsbns(400, 3_000_000), ['biblio']);
    const queue = new LookupQueue(t.db, MARKETPLACES.biblio);
    const batches = await Promise.all([queue.claim(100, 60_000), queue.claim(100, 60_000), queue.claim(100, 60_000)]);
    const ids = batches.flat().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
