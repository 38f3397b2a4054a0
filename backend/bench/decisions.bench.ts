// Decisions on a 150k-ISBN job × 4 marketplaces (the comparison bench's job), on PostgreSQL and on
// PGlite: judging with a 3-rule set, p50/p95 of the job page filtered by decision, sorted by decision
// and both (API beside the repository's SQL; target p95 ≤ 100 ms), the decision counts, and the
// time of re-judging with a changed rule set (target ≤ 2 s).
import type { Filter } from '@app/domain/fields';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { listComparison } from '../src/comparison/repository.ts';
import { openDatabase } from '../src/db/client.ts';
import { judgeJob } from '../src/decisions/judge.ts';
import { jobDecisionsSummary } from '../src/decisions/summary.ts';
import { findVisibleJob } from '../src/jobs/repository.ts';
import { productRoutes } from '../src/routes.ts';
import { ISBNS, seed } from './comparison.bench.ts';
import { benchContext } from './context.ts';
import { benchPostgres, now, percentile, report, timed } from './lib.ts';
import { feeSchedulesInForce } from '../src/fees/repository.ts';

const RUNS = 15;
const PAGE_MS = 100;
const REJUDGE_MS = 2000;

const condition = (field: string, operator: Filter['operator'], value: string) => ({ field, operator, value });
const RULES = [
  { outcome: 'Buy', color: 'green', conditions: [condition('best_price', 'lt', '20'), condition('pallet_iq_decision', 'equals', 'BUY')] },
  { outcome: 'List on AbeBooks', color: 'blue', conditions: [condition('spread', 'gte', '40')] },
  { outcome: 'Reject', color: 'red', conditions: [condition('best_price', 'gte', '90')] },
];
/** The same set edited: thresholds moved and a text condition added. */
const CHANGED = [
  { ...RULES[0], conditions: [condition('best_price', 'lt', '30'), condition('title', 'contains', '7')] },
  { ...RULES[1], conditions: [condition('spread', 'gte', '25')] },
  { ...RULES[2], conditions: [condition('best_price', 'gte', '70')] },
];

async function latencies(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn(); // warm
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = now();
    await fn();
    times.push(now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function benchEngine(engine: 'pg' | 'pglite'): Promise<void> {
  const pgDb = engine === 'pg' ? await benchPostgres() : undefined;
  const database = await openDatabase(pgDb ? { url: pgDb.url, poolSize: 10 } : {});
  const db = database.db;
  const name = (what: string) => `decisions (${engine}): ${what}`;
  try {
    const { ctx, admin } = await benchContext(database, pgDb?.url);
    const jobId = await seed(db, admin.id);
    const { rows } = await db.execute<{ id: number }>(
      sql`INSERT INTO rule_sets (owner_id, name) VALUES (${admin.id}, 'bench') RETURNING id`,
    );
    const ruleSetId = rows[0]?.id ?? 0;
    const version = async (n: number, rules: unknown[]) => {
      const { rows: v } = await db.execute<{ id: number }>(
        sql`INSERT INTO rule_set_versions (rule_set_id, version, rules) VALUES (${ruleSetId}, ${n}, ${JSON.stringify(rules)}::jsonb) RETURNING id`,
      );
      return { id: v[0]?.id ?? 0, rules };
    };
    const first = await timed(async () => judgeJob(db, await findVisibleJob(db, admin, jobId), await version(1, RULES)));
    report({ name: name(`judge ${ISBNS / 1000}k rows with 3 rules`), value: `${(first.ms / 1000).toFixed(2)} s` });
    await db.execute(sql`ANALYZE job_decisions`);

    const app = await buildApp(ctx, { routes: productRoutes });
    await app.ready();
    const token = await ctx.tokens.createAccessToken(admin);
    const headers = { authorization: `Bearer ${token}` };
    const job = await findVisibleJob(db, admin, jobId);
    const fees = await feeSchedulesInForce(db);
    const byDecision = [condition('decision', 'equals', 'List on AbeBooks')];
    const scenarios: [string, string, Filter[], { sort_by?: string; sort_direction?: 'asc' | 'desc' }][] = [
      ['page, decision = List on AbeBooks', '', byDecision, {}],
      ['page, sorted by decision', '&sort_by=decision&sort_direction=asc', [], { sort_by: 'decision', sort_direction: 'asc' }],
      ['page, sorted by decision desc', '&sort_by=decision&sort_direction=desc', [], { sort_by: 'decision', sort_direction: 'desc' }],
      ['page, decision = List on AbeBooks, sorted by decision', '&sort_by=decision', byDecision, { sort_by: 'decision' }],
    ];
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    for (const [what, qs, filters, sort] of scenarios) {
      const direct = await latencies(() => listComparison(db, job, { filters, ...sort, fees }, { skip: 0, limit: 10 }));
      report({ name: name(`${what}, direct SQL`), value: `p50 ${ms(direct.p50)}, p95 ${ms(direct.p95)}` });
      const api = await latencies(async () => {
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/jobs/${jobId}/comparison?skip=0&limit=10${qs}`,
          headers,
          payload: { filters },
        });
        if (res.statusCode !== 200) throw new Error(res.body);
      });
      report({
        name: name(`${what}, API`),
        value: `p50 ${ms(api.p50)}, p95 ${ms(api.p95)}`,
        target: `p95 ≤ ${PAGE_MS} ms`,
        ok: api.p95 <= PAGE_MS,
      });
    }
    const counts = await latencies(() => jobDecisionsSummary(db, job));
    report({ name: name('counts per decision, direct SQL'), value: `p50 ${ms(counts.p50)}, p95 ${ms(counts.p95)}` });

    const changed = await version(2, CHANGED);
    const rejudge = await timed(async () => judgeJob(db, await findVisibleJob(db, admin, jobId), changed));
    report({
      name: name(`re-judge ${ISBNS / 1000}k rows with a changed rule set`),
      value: `${(rejudge.ms / 1000).toFixed(2)} s`,
      target: `≤ ${REJUDGE_MS / 1000} s`,
      ok: rejudge.ms <= REJUDGE_MS,
    });
    await app.close();
  } finally {
    await database.close();
    await pgDb?.cleanup();
  }
}

export async function benchDecisions(): Promise<void> {
  await benchEngine('pg');
  await benchEngine('pglite');
}
