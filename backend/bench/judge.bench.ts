// Issue 29: one judge call froze the default install. A 150k-ISBN job (the comparison bench's) is
// judged through the API with the largest rule set the API accepts, written to cost the most (every
// condition but each rule's last holds, so all are evaluated), then judged again, while a separate
// process polls the health check every 50 ms (target: worst < 100 ms). PGlite by default;
// BENCH_DATABASE=postgres for PostgreSQL.
import type { AddressInfo } from 'node:net';
import { CONDITIONS_MAX, RULE_SET_CONDITIONS_MAX, RULES_MAX } from '@app/domain/rules';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import { productRoutes } from '../src/routes.ts';
import { HealthWatch } from './abuse.bench.ts';
import { ISBNS, seed } from './comparison.bench.ts';
import { benchContext } from './context.ts';
import { benchPostgres, report } from './lib.ts';

const HEALTH_TARGET_MS = 100;
const HEALTH_PATH = '/api/v1/utils/health-check/';

/**
 * The costliest rule set the API accepts: RULES_MAX rules sharing RULE_SET_CONDITIONS_MAX conditions
 * (at most CONDITIONS_MAX each), text matches that hold for every row but the last of each rule, which
 * holds for none, so every row is tested against every condition and no rule matches.
 */
export function costliestRuleSet() {
  const perRule = Math.min(CONDITIONS_MAX, Math.floor(RULE_SET_CONDITIONS_MAX / RULES_MAX));
  const holds = (j: number) =>
    j % 2 === 0 ? { field: 'title', operator: 'contains', value: 'itle' } : { field: 'isbn', operator: 'contains', value: '978' };
  return {
    name: 'costliest',
    rules: Array.from({ length: RULES_MAX }, (_, i) => ({
      outcome: `Outcome ${i}`,
      color: 'red',
      conditions: [...Array.from({ length: perRule - 1 }, (_, j) => holds(j)), { field: 'isbn', operator: 'contains', value: 'x' }],
    })),
  };
}

async function benchEngine(engine: 'pg' | 'pglite'): Promise<void> {
  const pgDb = engine === 'pg' ? await benchPostgres() : undefined;
  const database = await openDatabase(pgDb ? { url: pgDb.url, poolSize: 10 } : {});
  const name = (what: string) => `judge (${engine}): ${what}`;
  let watch: HealthWatch | undefined;
  try {
    const { ctx, admin } = await benchContext(database, pgDb?.url);
    const jobId = await seed(database.db, admin.id);
    const app = await buildApp(ctx, { routes: productRoutes });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const headers = { authorization: `Bearer ${await ctx.tokens.createAccessToken(admin)}`, 'content-type': 'application/json' };
    const post = async (url: string, body: unknown) => {
      const res = await fetch(`${base}/api/v1${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as { id: number };
    };
    const set = costliestRuleSet();
    const created = await post('/rule-sets', set);
    const conditions = set.rules.reduce((n, r) => n + r.conditions.length, 0);

    watch = await HealthWatch.start(`${base}${HEALTH_PATH}`);
    const quiet = await watch.during(() => new Promise((resolve) => setTimeout(resolve, 2_000)));
    report({ name: name('quiet baseline, health check every 50 ms'), value: `worst ${quiet.worst.toFixed(0)} ms` });
    for (const [what, url, body] of [
      ['judge', `/jobs/${jobId}/judge`, { rule_set_id: created.id }],
      ['re-judge', `/jobs/${jobId}/rejudge`, {}],
    ] as const) {
      const start = performance.now();
      const h = await watch.during(() => post(url, body));
      const ms = performance.now() - start;
      report({
        name: name(`${what} ${ISBNS / 1000}k rows with ${set.rules.length} rules, ${conditions} conditions: time`),
        value: `${(ms / 1000).toFixed(1)} s`,
      });
      report({
        name: name(`health while the ${what} runs`),
        value: `worst ${h.worst.toFixed(0)} ms, p95 ${h.p95.toFixed(0)} ms over ${h.polls} polls${h.failed ? `, ${h.failed} failed` : ''}`,
        target: `worst < ${HEALTH_TARGET_MS} ms`,
        ok: h.worst < HEALTH_TARGET_MS && h.failed === 0,
      });
    }
    await app.close();
  } finally {
    watch?.stop();
    await database.close();
    await pgDb?.cleanup();
  }
}

export async function benchJudge(): Promise<void> {
  await benchEngine(process.env.BENCH_DATABASE === 'postgres' ? 'pg' : 'pglite');
}
