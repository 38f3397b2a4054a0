// The phone's offline verdict (domain/src/offline-verdict.ts over the offline pack) against the
// server's: random lookup rows of a session-like job (every marketplace answered in some way or
// still queued, prices in several currencies, with and without shipping, ties, empty values) and
// random rule sets (every comparison field a rule may test, every operator, wrong operators and
// values, empty values, unreadable rules) judged by the comparison's SQL (comparisonTable +
// rules-sql) and by the evaluator on the pack built from the same rows. Every row must get the same
// outcome, and every field a rule may test the same value. Seeded: OFFLINE_PROPERTY_SEED replays a run.
import { MARKETPLACE_IDS, MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { figuresAt, packIndex } from '@app/domain/offline-pack';
import { compileOfflineRules, offlineVerdict, unansweredFigures } from '@app/domain/offline-verdict';
import type { FeeSchedule } from '@app/domain/fees';
import { RULE_COLORS, RULE_FIELDS } from '@app/domain/rules';
import { operatorsFor } from '@app/domain/fields';
import { isDeepStrictEqual } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparisonTable } from '../src/comparison/query.ts';
import { compileRules, decisionCases } from '../src/decisions/rules-sql.ts';
import { bookVelocity, jobs, users } from '../src/db/schema.ts';
import type { FeeSchedules } from '../src/fees/repository.ts';
import { buildFiguresPack } from '../src/scan/offline-pack.ts';
import { ADMIN, startTestApp, type TestApp } from './helpers/app.ts';
import { ENGINES, type Engine } from './helpers/databases.ts';
import { seedComparisonJob } from './helpers/seed-lookups.ts';

const SEED = Number(process.env.OFFLINE_PROPERTY_SEED ?? 20261127);
const ROWS = 160;
/**
 * Random rule sets per engine. The agreement of phone and server is the same question on either
 * engine; what PGlite adds is its reading of the same SQL, which 20 rule sets over 160 rows show
 * (each trial costs two comparison queries: ~0.35 s on PGlite, ~0.15 s on PostgreSQL, loaded).
 */
const TRIALS: Record<Engine, number> = { pg: 60, pglite: 20 };

/** mulberry32: a small seeded PRNG, so a failing run can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Rand = ReturnType<typeof prng>;

/** Prices that tie, need rounding (x.xx5), are tiny, large or negative-free as marketplaces give them. */
function money(r: Rand): number | null {
  if (r.chance(0.2)) return null;
  return r.pick([
    () => 9.99,
    () => 10,
    () => 0.01,
    () => 12.345,
    () => 0.005,
    () => 123456.78,
    () => r.int(5000) / 100,
    () => r.int(50000) / 1000,
    () => r.int(300),
  ])();
}

const CURRENCIES = ['USD', 'usd', '', null, 'EUR', 'GBP', 'Cad'];

/** One marketplace's lookup row: answered (its data) or still queued (none). */
function lookupRow(r: Rand, id: MarketplaceId): Record<string, unknown> {
  if (r.chance(0.15)) return { lookup_status: 'queued' };
  const noOffers = r.chance(0.1);
  const row: Record<string, unknown> = {
    lookup_status: noOffers ? 'no_offers_available' : 'completed',
    answered_minutes: r.int(60 * 24 * 20),
    offer_count: noOffers ? 0 : r.chance(0.2) ? null : r.int(40),
    previous_price: r.chance(0.5) ? null : money(r),
    previous_currency: r.pick(['USD', 'EUR', null, 'usd']),
  };
  const priced = (cols: Record<string, unknown>) => (noOffers ? {} : cols);
  switch (id) {
    case 'abe_books':
      return { ...row, ...priced({ total_listing_price: money(r), listing_price: money(r) }) };
    case 'biblio':
      return { ...row, ...priced({ price: money(r), shipping_price: r.chance(0.5) ? null : money(r), currency: r.pick(CURRENCIES) }) };
    case 'alibris':
      return { ...row, ...priced({ price: money(r) }) };
    case 'amazon':
      return {
        ...row,
        ...priced({
          lowest_used_price: money(r),
          lowest_new_price: money(r),
          buy_box_price: money(r),
          sales_rank: r.chance(0.2) ? null : r.pick([1, 5000, 2_500_000_000, r.int(3_000_000), 12.5]),
        }),
      };
    case 'ebay':
      return { ...row, ...priced({ price: money(r), shipping_cost: r.chance(0.3) ? null : money(r), currency: r.pick(CURRENCIES) }) };
    case 'pallet_iq':
      return {
        ...row,
        winner_amazon_log_data_mp_decision: r.pick(['BUY', 'Reject', 'buy', '', null, 'MAYBE 50%_x']),
        winner_amazon_log_data_mm_val: r.chance(0.2) ? null : r.pick([-3.5, 0, 4.125, r.int(10000) / 100, 1e-7]),
      };
  }
}

const TEXT_COLUMNS = new Set(['currency', 'previous_currency', 'winner_amazon_log_data_mp_decision']);
const columnType = (c: string) => (c === 'offer_count' ? 'int' : TEXT_COLUMNS.has(c) ? 'text' : 'float8');

async function insertLookups(t: TestApp, jobId: number, id: MarketplaceId, rows: { isbn: string; row: Record<string, unknown> }[]) {
  const columns = [...new Set(rows.flatMap((x) => Object.keys(x.row)))].filter((c) => c !== 'answered_minutes' && c !== 'lookup_status');
  const values = rows.map(
    ({ isbn, row }) =>
      sql`(${jobId}::int, ${isbn}, ${row.lookup_status as string}, ${
        row.answered_minutes === undefined ? null : Number(row.answered_minutes)
      }::int${sql.join(
        columns.map((c) => sql`, ${row[c] ?? null}::${sql.raw(columnType(c))}`),
        sql``,
      )})`,
  );
  await t.ctx.db.execute(sql`
    INSERT INTO ${sql.identifier(MARKETPLACES[id].table)} (isbn_lookup_job_id, isbn, lookup_status, answered_at${sql.join(
      columns.map((c) => sql`, ${sql.identifier(c)}`),
      sql``,
    )})
    SELECT v.job, v.isbn, v.status, now() - v.minutes * interval '1 minute'${sql.join(
      columns.map((c) => sql`, v.${sql.identifier(c)}`),
      sql``,
    )}
    FROM (VALUES ${sql.join(values, sql`, `)}) AS v(job, isbn, status, minutes${sql.join(
      columns.map((c) => sql`, ${sql.identifier(c)}`),
      sql``,
    )})`);
}

function randomFees(r: Rand): FeeSchedules {
  const one = (): FeeSchedule => ({
    percent: r.pick([0, 8, 15, 15.3, 20, 12.75, 100]),
    min_commission: r.pick([null, 0.5, 1, 0]),
    max_commission: r.pick([null, 40, 2.5]),
    fixed: r.pick([0, 1.8, 0.4, 0.33]),
    shipping_credit: r.pick([0, 3.99, 1.5]),
  });
  const fees: FeeSchedules = {};
  for (const id of ['abe_books', 'biblio', 'alibris', 'amazon', 'ebay'] as const) if (!r.chance(0.1)) fees[id] = one();
  return fees;
}

/** A value for a condition: near the rows' own values (so rules match), or odd. */
function conditionValue(r: Rand, field: (typeof RULE_FIELDS)[number], seen: unknown[]): string | number {
  const from = seen.filter((v) => v !== null && v !== undefined);
  if (field.type === 'text') {
    const s = from.length && r.chance(0.7) ? String(r.pick(from)) : r.pick(['', 'Abe', 'us', '%', '_', '\\', 'completed', 'Amazon']);
    return r.pick([() => s, () => s.toUpperCase(), () => s.toLowerCase(), () => s.slice(1, 4), () => `${s} `])();
  }
  const n = from.length && r.chance(0.7) ? Number(r.pick(from)) : r.int(100);
  const v = r.pick([
    () => String(n),
    () => String(Math.round((n + 0.01) * 100) / 100),
    () => String(Math.round((n - 0.005) * 1000) / 1000),
    () => String(Math.trunc(n)),
    () => ` ${n} `,
    () => '3000000000',
    () => '-1',
    () => '1e3',
    () => 'abc',
    () => '',
  ])();
  return r.chance(0.1) && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
}

function randomRules(r: Rand, seen: Record<string, unknown[]>): unknown[] {
  return Array.from({ length: 1 + r.int(5) }, () => {
    if (r.chance(0.03)) return { outcome: '   ', color: 'green', conditions: [] };
    const conditions = Array.from({ length: r.chance(0.04) ? 0 : 1 + r.int(3) }, () => {
      const field = r.chance(0.02) ? { name: 'no_such_field', type: 'text' as const } : r.pick(RULE_FIELDS);
      const operators = operatorsFor(field.type);
      const operator = r.chance(0.05) ? r.pick(['contains', 'gt', 'like']) : r.pick(operators);
      const def = RULE_FIELDS.find((f) => f.name === field.name);
      return { field: field.name, operator, value: def ? conditionValue(r, def, seen[def.name] ?? []) : 'x' };
    });
    return { outcome: `Outcome ${r.int(1000)}`, color: r.chance(0.05) ? 'purple' : r.pick(RULE_COLORS), conditions };
  });
}

describe.each(ENGINES)('offline verdicts on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('agree with the server, row by row, over random rule sets and rows', async () => {
    const r = prng(SEED);
    const [admin] = await t.ctx.db.select().from(users).where(eq(users.email, ADMIN.email));
    if (!admin) throw new Error('no admin');
    const jobId = await seedComparisonJob(t.ctx.db, admin.id, [...MARKETPLACE_IDS]);
    const isbns = Array.from({ length: ROWS }, (_, i) => `978${String(100000000 + i * 7919).padStart(10, '0')}`);
    for (const id of MARKETPLACE_IDS)
      await insertLookups(
        t,
        jobId,
        id,
        isbns.map((isbn) => ({ isbn, row: lookupRow(r, id) })),
      );
    // How fast most of them sell (book_velocity): some from Keepa, some from our own looks, a few thin.
    const velocity = isbns
      .filter(() => r.chance(0.7))
      .map((isbn) => {
        const drops = [r.int(5), r.int(15), r.int(40)].sort((a, b) => a - b);
        return {
          isbn,
          source: r.pick(['keepa', 'amazon'] as const),
          observations: r.int(300),
          rank_drops_30: drops[0] ?? 0,
          rank_drops_90: drops[1] ?? 0,
          rank_drops_180: drops[2] ?? 0,
          avg_rank_90: r.chance(0.2) ? null : r.int(3_000_000),
          avg_rank_180: r.chance(0.2) ? null : r.int(3_000_000),
          sale_days_180: r.int(60),
          computed_at: new Date(),
        };
      });
    // One statement: a hundred single-row inserts took seconds on PGlite.
    await t.ctx.db.insert(bookVelocity).values(velocity);
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId));
    if (!job) throw new Error('no job');
    const pack = await buildFiguresPack(t.ctx.db, admin, { days: 30 });

    const fieldNames = RULE_FIELDS.map((f) => f.name);
    let matched = 0;
    const trials = TRIALS[engine];
    for (let trial = 0; trial < trials; trial++) {
      const fees = randomFees(r);
      const cost = r.pick([null, 0, 1.25, 2.5, 0.333]);
      const theJob = { ...job, cost_per_book: cost };
      const seenRows = (
        await t.ctx.db.execute<Record<string, unknown>>(sql`SELECT * FROM ${comparisonTable(theJob, { fees, decisions: false })}`)
      ).rows;
      const seen = Object.fromEntries(fieldNames.map((n) => [n, seenRows.map((row) => row[n])]));
      const rules = randomRules(r, seen);
      const { ruleIndex } = decisionCases(compileRules(rules));
      const { rows } = await t.ctx.db.execute<Record<string, unknown>>(
        sql`SELECT ${ruleIndex} AS rule_index, ${sql.join(
          fieldNames.map((n) => sql.identifier(n)),
          sql`, `,
        )} FROM ${comparisonTable(theJob, { fees, decisions: false })} ORDER BY isbn`,
      );
      expect(rows).toHaveLength(ROWS);
      const compiled = compileOfflineRules(rules);
      const trialContext = `seed ${SEED}, trial ${trial}, rules ${JSON.stringify(rules)}`;
      for (const row of rows) {
        const isbn = String(row.isbn);
        const at = packIndex(pack.isbns, isbn);
        const { outcome, values } = offlineVerdict(at < 0 ? unansweredFigures(isbn) : figuresAt(pack, at), compiled, fees, cost);
        const server = Object.fromEntries(fieldNames.map((n) => [n, row[n] === undefined ? null : row[n]]));
        const phone = Object.fromEntries(fieldNames.map((n) => [n, values[n] ?? null]));
        const serverIndex = row.rule_index === null ? null : Number(row.rule_index);
        // expect() with its message only where they differ: 9,600 rows' messages cost seconds.
        if (!isDeepStrictEqual(phone, server) || outcome.rule_index !== serverIndex) {
          const context = `ISBN ${isbn}, ${trialContext}`;
          expect(phone, context).toEqual(server);
          expect(outcome.rule_index, context).toBe(serverIndex);
        }
        if (serverIndex !== null) matched++;
      }
    }
    // The rules matched rows often enough for the agreement to mean something.
    expect(matched).toBeGreaterThan((ROWS * trials) / 20);
  }, 240_000);
});
