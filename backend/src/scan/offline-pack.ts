// The offline pack (GET /scan/offline-pack): per ISBN the team's latest answer of each marketplace
// within OFFLINE_PACK_DAYS, as the figures the comparison starts from (each price source's price with
// shipping and its currency computed by the comparison's own SQL, priceOf in comparison/query.ts),
// with the rule sets and fee schedules to judge them with; or, for a "decisions only" account, only
// the team default's outcome per ISBN (judged here with the same evaluator the phone runs).
import {
  COMPARED_MARKETPLACES,
  DECISION_SOURCES,
  EXTRA_COLUMNS,
  PRICE_SOURCES,
  currencyField,
  decisionField,
  offersField,
  priceField,
  statusField,
  valueField,
} from '@app/domain/comparison';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import {
  OFFLINE_PACK_FORMAT,
  PACK_NUMBER_COLUMNS,
  PACK_TEXT_COLUMNS,
  figuresAt,
  type FiguresPack,
  type PackOutcome,
  type PackRuleSet,
  type VerdictPack,
} from '@app/domain/offline-pack';
import { compileOfflineRules, offlineVerdict, unansweredFigures } from '@app/domain/offline-verdict';
import { VELOCITY_FIELDS } from '@app/domain/velocity';
import { sql, type SQL } from 'drizzle-orm';
import { priceOf } from '../comparison/query.ts';
import type { Db } from '../db/client.ts';
import { bookVelocity, feeSchedules } from '../db/schema.ts';
import { listUsableRuleSets } from '../decisions/versions.ts';
import { feeSchedulesInForce } from '../fees/repository.ts';
import { readRuleSetVersion, teamDefaultVersion } from '../rules/repository.ts';
import type { UserRow } from '../users/schemas.ts';

export interface PackOptions {
  days: number;
  /** Only ISBNs answered after this instant (a pack's version: microseconds since 1970); undefined: the whole pack. */
  since?: number;
}

/** The figures of one marketplace's latest answers: column name in the pack → SQL over the answer row `a`. */
function marketplaceColumns(id: MarketplaceId): { name: string; value: SQL; type: 'bigint' | 'int' | 'float8' | 'text' }[] {
  const a = (name: string) => sql`a.${sql.identifier(name)}`;
  const status = { name: statusField(id), value: sql`a.lookup_status`, type: 'text' as const };
  const advice = DECISION_SOURCES.find((d) => d.marketplace === id);
  if (advice)
    return [
      status,
      { name: decisionField(id), value: a(advice.decision), type: 'text' },
      { name: valueField(id), value: a(advice.value), type: 'float8' },
    ];
  const source = PRICE_SOURCES.find((s) => s.marketplace === id);
  if (!source) return [];
  const { price, currency } = priceOf(source, true, a);
  return [
    status,
    // Already rounded to cents by priceOf: sent as an integer.
    { name: priceField(id), value: sql`round((${price})::numeric * 100)`, type: 'bigint' },
    { name: currencyField(id), value: currency, type: 'text' },
    { name: offersField(id), value: a('offer_count'), type: 'int' },
    { name: `${id}_previous_price`, value: a('previous_price'), type: 'float8' },
    { name: `${id}_previous_currency`, value: a('previous_currency'), type: 'text' },
    ...EXTRA_COLUMNS.filter((e) => e.marketplace === id).map((e) => ({ name: e.name, value: a(e.column), type: 'float8' as const })),
  ];
}

/** An answer's time in whole microseconds (what a timestamptz holds), exact: a version names the latest answer sent. */
const MICROS = sql`(extract(epoch FROM a.answered_at) * 1000000)::bigint`;

const ANSWERED = sql`lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL`;

/** The marketplaces whose answers the pack carries: the price sources and the advising ones (PalletIQ). */
const PACK_MARKETPLACES: readonly MarketplaceId[] = COMPARED_MARKETPLACES;

interface Rows {
  /** In ascending order; each column has one value per ISBN in this order. */
  isbns: string[];
  columns: Record<string, unknown[]>;
  /** The latest answer's time (µs) among the rows read; 0 when none. */
  latest: number;
}

/** Two ascending lists of ISBNs as one, each ISBN once. */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    const [x, y] = [a[i], b[j]];
    if (y === undefined || (x !== undefined && x < y)) out.push(a[i++] as string);
    else {
      if (x === y) i++;
      out.push(b[j++] as string);
    }
  }
  return out;
}

/**
 * Every ISBN's latest answer per marketplace (or only the ISBNs answered since `since`), as columns.
 * One statement per marketplace: the latest answer of each ISBN (DISTINCT ON, in ISBN order) with
 * each column aggregated by the database into one JSON array, so a few long texts come back instead
 * of 6M rows (the driver took most of the time reading rows). The six lists are then merged here by
 * ISBN: joining them in SQL made the planner, which cannot know their sizes, pick nested loops.
 * ISBN-13s are digits only, so the database's order and JavaScript's agree.
 */
async function latestAnswers(db: Db, o: PackOptions): Promise<Rows> {
  const window = sql`answered_at > now() - ${o.days} * interval '1 day'`;
  const parse = (text: string | null | undefined): unknown[] => (text ? (JSON.parse(text) as unknown[]) : []);
  // A delta carries whole ISBNs: every marketplace's latest answer of an ISBN one of them answered
  // since. Found once (a scan of each table: no index leads with answered_at), then each
  // marketplace's answers of those ISBNs come through the reusable-answer index, isbn first.
  let changed = sql``;
  if (o.since !== undefined) {
    const after = sql`'epoch'::timestamptz + ${String(o.since)}::bigint * interval '1 microsecond'`;
    const { rows } = await db.execute<{ isbns: string | null }>(sql`
      SELECT array_to_json(array_agg(isbn))::text AS isbns FROM (${sql.join(
        [
          ...PACK_MARKETPLACES.map(
            (id) => sql`SELECT isbn FROM ${sql.identifier(MARKETPLACES[id].table)} WHERE ${ANSWERED} AND answered_at > ${after}`,
          ),
          // Velocity is recomputed when Keepa's series arrive too, without a new answer.
          sql`SELECT isbn FROM ${bookVelocity} WHERE computed_at > ${after}`,
        ],
        sql` UNION `,
      )}) c`);
    const isbns = parse(rows[0]?.isbns) as string[];
    if (isbns.length === 0) return { isbns: [], columns: {}, latest: 0 };
    // A semi-join on the list unnested (hashed): `= ANY(list)` tested each row against the whole list.
    changed = sql` AND isbn IN (SELECT unnest(${sql.param(isbns)}::text[]))`;
  }
  // The six statements at once: each is one CPU-bound scan and aggregate (PGlite runs them in turn).
  const read = async (id: MarketplaceId) => {
    const cols = marketplaceColumns(id);
    // Each figure is computed in the inner statement, which reads only the columns they name (a
    // DISTINCT ON over `*` carried every column of a million rows), in the reusable-answer index's
    // own order (answered_at DESC NULLS LAST: no sort). json_agg builds each JSON array in one pass;
    // array_to_json(array_agg(…)) built an array first and took three times as long (1M ISBNs).
    const { rows } = await db.execute<Record<string, string | null>>(sql`
      SELECT json_agg(a.isbn)::text AS isbns, max(a.micros)::text AS latest, ${sql.join(
        cols.map((c) => sql`json_agg(a.${sql.identifier(c.name)})::text AS ${sql.identifier(c.name)}`),
        sql`, `,
      )}
      FROM (SELECT DISTINCT ON (a.isbn) a.isbn, ${MICROS} AS micros, ${sql.join(
        cols.map((c) => sql`(${c.value})::${sql.raw(c.type)} AS ${sql.identifier(c.name)}`),
        sql`, `,
      )}
            FROM ${sql.identifier(MARKETPLACES[id].table)} a
            WHERE ${ANSWERED} AND ${window}${changed}
            ORDER BY a.isbn, a.answered_at DESC NULLS LAST) a`);
    const row = rows[0] ?? {};
    return {
      latest: Number(row.latest ?? 0),
      isbns: parse(row.isbns) as string[],
      columns: Object.fromEntries(cols.map((c) => [c.name, parse(row[c.name])])),
    };
  };
  // How fast each book sells (book_velocity, one row per ISBN): the same figures the comparison joins.
  const readVelocity = async () => {
    const { rows } = await db.execute<Record<string, string | null>>(sql`
      SELECT json_agg(v.isbn)::text AS isbns, max((extract(epoch FROM v.computed_at) * 1000000)::bigint)::text AS latest, ${sql.join(
        VELOCITY_FIELDS.map(
          (f) =>
            sql`json_agg(v.${sql.identifier(f.stored)}::${sql.raw(f.type === 'number' ? 'float8' : 'text')})::text AS ${sql.identifier(f.name)}`,
        ),
        sql`, `,
      )}
      FROM (SELECT * FROM ${bookVelocity} WHERE TRUE${changed} ORDER BY isbn) v`);
    const row = rows[0] ?? {};
    return {
      latest: Number(row.latest ?? 0),
      isbns: parse(row.isbns) as string[],
      columns: Object.fromEntries(VELOCITY_FIELDS.map((f) => [f.name, parse(row[f.name])])),
    };
  };
  const [velocity, ...lists] = await Promise.all([readVelocity(), ...PACK_MARKETPLACES.map(read)]);
  const latest = Math.max(0, ...[velocity, ...lists].map((l) => l.latest));
  // The pack's ISBNs are those answered; velocity only fills in the ones it knows.
  const isbns = lists.reduce<string[]>((all, l) => mergeSorted(all, l.isbns), []);
  const columns: Record<string, unknown[]> = {};
  for (const l of [...lists, velocity]) {
    const filled = Object.fromEntries(Object.keys(l.columns).map((name) => [name, new Array<unknown>(isbns.length).fill(null)]));
    let j = 0;
    for (let i = 0; i < isbns.length && j < l.isbns.length; i++) {
      // Both lists ascend: skip what the list has and the pack does not.
      while (j < l.isbns.length && (l.isbns[j] as string) < (isbns[i] as string)) j++;
      if (isbns[i] !== l.isbns[j]) continue;
      for (const name in l.columns) (filled[name] as unknown[])[i] = l.columns[name]?.[j];
      j++;
    }
    Object.assign(columns, filled);
  }
  return { isbns, columns, latest };
}

const numberOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function columnar(rows: Rows): Pick<FiguresPack, 'numbers' | 'texts'> {
  const numbers: FiguresPack['numbers'] = {};
  for (const c of PACK_NUMBER_COLUMNS) numbers[c.name] = rows.isbns.map((_, i) => numberOrNull(rows.columns[c.name]?.[i]));
  const texts: FiguresPack['texts'] = {};
  for (const name of PACK_TEXT_COLUMNS) {
    const values: string[] = [];
    const place = new Map<string, number>();
    const column = rows.columns[name] ?? [];
    const codes = rows.isbns.map((_, i) => {
      const v = column[i];
      if (v === null || v === undefined) return 0;
      const key = String(v);
      let code = place.get(key);
      if (code === undefined) {
        values.push(key);
        code = values.length;
        place.set(key, code);
      }
      return code;
    });
    texts[name] = { values, codes };
  }
  return { numbers, texts };
}

/** When the fee schedules last changed (ms; 0 while all are defaults): a verdict pack judged before is stale. */
async function feesStamp(db: Db): Promise<number> {
  const { rows } = await db.execute<{ at: number | null }>(
    sql`SELECT floor(extract(epoch FROM max(updated_at)) * 1000)::float8 AS at FROM ${feeSchedules}`,
  );
  return Number(rows[0]?.at ?? 0);
}

/** The version a pack answers with: the latest answer it holds (or the one it was asked after), in µs. */
const answersVersion = (rows: Rows, since: number | undefined) => String(Math.max(rows.latest, since ?? 0));

/** The figures pack for an account that may see figures. */
export async function buildFiguresPack(db: Db, user: UserRow, o: PackOptions): Promise<FiguresPack> {
  const rows = await latestAnswers(db, o);
  const usable = await listUsableRuleSets(db, user);
  const ruleSets: PackRuleSet[] = [];
  for (const r of usable) {
    const v = await readRuleSetVersion(db, r.version_id);
    if (v)
      ruleSets.push({
        id: r.id,
        name: r.name,
        is_team_default: r.is_team_default,
        version: r.version,
        version_id: r.version_id,
        rules: v.rules,
      });
  }
  return {
    kind: 'figures',
    format: OFFLINE_PACK_FORMAT,
    version: answersVersion(rows, o.since),
    delta: o.since !== undefined,
    days: o.days,
    built_at: new Date().toISOString(),
    isbns: rows.isbns,
    ...columnar(rows),
    rule_sets: ruleSets,
    fees: await feeSchedulesInForce(db),
  };
}

/** Whether a rule tests the ISBN itself: then an ISBN the pack lacks cannot be judged without the rules. */
const testsIsbn = (rules: unknown): boolean =>
  Array.isArray(rules) &&
  rules.some(
    (r: { conditions?: unknown }) => Array.isArray(r?.conditions) && r.conditions.some((c: { field?: unknown }) => c?.field === 'isbn'),
  );

/**
 * The verdict pack for a "decisions only" account: the team default's outcome per ISBN, no figure.
 * Its version also names the rule set's version and the fees' last change: a `since` judged with
 * others gets the whole pack again, since every kept verdict may have changed.
 */
export async function buildVerdictPack(db: Db, o: PackOptions & { sinceVersion?: string }): Promise<VerdictPack> {
  const version = await teamDefaultVersion(db);
  const fees = await feeSchedulesInForce(db);
  const judgedWith = `${version?.id ?? 0}.${await feesStamp(db)}`;
  const [, keptJudgedWith] = (o.sinceVersion ?? '').split(/:(.*)/s);
  const since = keptJudgedWith === judgedWith ? o.since : undefined;
  const rows = await latestAnswers(db, { days: o.days, since });
  const pack = { ...columnar(rows), isbns: rows.isbns } as FiguresPack;
  const rules = compileOfflineRules(version?.rules ?? []);
  const outcomes: PackOutcome[] = [];
  const codeOf = (o2: PackOutcome) => {
    const at = outcomes.findIndex((x) => x.name === o2.name && x.color === o2.color);
    if (at >= 0) return at;
    outcomes.push(o2);
    return outcomes.length - 1;
  };
  // A scout's session has no cost per book of its own: judged as the team default's session would be.
  const judge = (i: number | undefined, isbn: string) => {
    const { outcome } = offlineVerdict(i === undefined ? unansweredFigures(isbn) : figuresAt(pack, i), rules, fees, null);
    return codeOf({ name: outcome.name, color: outcome.color });
  };
  const codes = rows.isbns.map((isbn, i) => judge(i, isbn));
  return {
    kind: 'verdicts',
    format: OFFLINE_PACK_FORMAT,
    version: `${answersVersion(rows, since)}:${judgedWith}`,
    delta: since !== undefined,
    days: o.days,
    built_at: new Date().toISOString(),
    isbns: rows.isbns,
    rule_set: version ? { id: version.rule_set_id, name: version.name, version: version.version } : null,
    outcomes,
    codes,
    unknown: testsIsbn(version?.rules) ? null : judge(undefined, ''),
  };
}
