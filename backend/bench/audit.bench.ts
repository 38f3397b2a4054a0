// The audit trail's search over 1M events on PGlite (the embedded server, where a slow statement
// holds everyone's only connection): one page with its bounded count, as the page asks it, for the
// filters and sorts the page offers. Target: each search ≤ 100 ms (issue 29: 2–4 s unindexed).
import type { Filter } from '@app/domain/fields';
import { sql } from 'drizzle-orm';
import { listAuditEvents } from '../src/audit/repository.ts';
import { openDatabase } from '../src/db/client.ts';
import { now, percentile, report } from './lib.ts';

const EVENTS = Number(process.env.AUDIT_BENCH_EVENTS ?? 1_000_000);
const RUNS = 5;
const SEARCH_MS = 100;

/** 1M events over a year: 2,000 actors, 20,000 addresses, job and user targets, a few actions. */
async function seed(db: Awaited<ReturnType<typeof openDatabase>>['db']): Promise<void> {
  await db.execute(sql`
    INSERT INTO audit_events (created_at, actor_id, actor_email, action, target_type, target_id, target_label, client_address, details)
    SELECT now() - (i * interval '31 seconds'),
           CASE WHEN i % 5 = 0 THEN NULL ELSE md5((i % 2000)::text)::uuid::text END,
           CASE WHEN i % 5 = 0 THEN NULL ELSE 'staff-' || (i % 2000) || '@example.com' END,
           (ARRAY['job.created','job.cancelled','auth.login_succeeded','auth.login_failed','user.updated'])[1 + i % 5],
           CASE WHEN i % 3 = 0 THEN 'user' ELSE 'job' END,
           (i % 50000)::text,
           'target ' || (i % 50000),
           '10.' || (i % 200) || '.' || (i % 100) || '.' || (i % 97),
           '{}'::jsonb
    FROM generate_series(1, ${EVENTS}) AS i`);
  await db.execute(sql`ANALYZE audit_events`);
}

const f = (field: string, operator: string, value: string) => ({ field, operator, value }) as Filter;

/** What the page offers: its filters (equals and contains on each text field) and its sorts. */
const SEARCHES: [string, Filter[], { sort_by?: string; sort_direction?: 'asc' | 'desc' }][] = [
  ['newest first, no filter', [], {}],
  ['action = auth.login_failed', [f('action', 'equals', 'auth.login_failed')], {}],
  ['client address = one address', [f('client_address', 'equals', '10.7.7.7')], {}],
  ['actor = one email', [f('actor_email', 'equals', 'staff-77@example.com')], {}],
  ['target id = one id', [f('target_id', 'equals', '4242')], {}],
  ['target = one label', [f('target_label', 'equals', 'target 4242')], {}],
  ['target contains a rare text', [f('target_label', 'contains', 'get 4242')], {}],
  ['actor contains a rare text', [f('actor_email', 'contains', 'staff-77@')], {}],
  ['client address contains', [f('client_address', 'contains', '10.7.7.')], {}],
  ['sorted by actor', [], { sort_by: 'actor_email', sort_direction: 'asc' }],
  ['sorted by client address desc', [], { sort_by: 'client_address', sort_direction: 'desc' }],
  ['sorted by target', [], { sort_by: 'target_label', sort_direction: 'asc' }],
  ['actor = one email, sorted by target', [f('actor_email', 'equals', 'staff-77@example.com')], { sort_by: 'target_label' }],
];

export async function benchAudit(): Promise<void> {
  const database = await openDatabase({});
  try {
    const seedStart = now();
    await seed(database.db);
    report({ name: `audit (pglite): seed ${EVENTS / 1000}k events`, value: `${((now() - seedStart) / 1000).toFixed(1)} s` });
    for (const [what, filters, sort] of SEARCHES) {
      const search = () => listAuditEvents(database.db, { filters, ...sort }, { skip: 0, limit: 50 });
      await search(); // warm
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = now();
        await search();
        times.push(now() - start);
      }
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      report({
        name: `audit (pglite): ${what}, page + count`,
        value: `p50 ${p50.toFixed(0)} ms, max ${percentile(times, 100).toFixed(0)} ms`,
        target: `≤ ${SEARCH_MS} ms`,
        ok: p50 <= SEARCH_MS,
      });
    }
  } finally {
    await database.close();
  }
}
