// A scan's verdict judged on the phone, without the server: the comparison row of one ISBN computed
// from the figures the offline pack holds, then the rule set's first matching rule. It mirrors the
// SQL the server judges with, clause by clause (backend/src/comparison/query.ts for the row,
// backend/src/lib/filter-sql.ts and decisions/rules-sql.ts for the rules); a property test
// (backend/test/offline-verdict.int.test.ts) runs random rule sets over random rows through both and
// demands the same outcome for every row.
import {
  COMPARISON_CURRENCY,
  COMPARED_MARKETPLACES,
  DECISION_SOURCES,
  EXTRA_COLUMNS,
  PRICE_SOURCES,
  changeField,
  decisionField,
  currencyField,
  offersField,
  priceField,
  statusField,
  valueField,
} from './comparison.ts';
import { add, compare, decimalOfDouble, decimalOfText, mul, parseDecimal, round, shift, sub, toNumber, type Decimal } from './decimal.ts';
import type { FeeSchedule } from './fees.ts';
import { NUMBER_OPERATORS, TEXT_OPERATORS, type FieldDef } from './fields.ts';
import { parseFilterDate, parseFilterNumber } from './filter-values.ts';
import { MARKETPLACES, type MarketplaceId } from './marketplaces.ts';
import { NO_RULE, OUTCOME_MAX_LENGTH, RULE_COLORS, RULE_FIELDS, type RuleColor } from './rules.ts';
import { VELOCITY_FIELDS } from './velocity.ts';

export type Value = string | number | null;

/**
 * One ISBN's figures as the comparison's first level has them (query.ts `inner`): per price source
 * `<id>_price` (with shipping, rounded to cents, in its own currency), `<id>_currency`, `<id>_status`,
 * `<id>_offers`, `<id>_previous_price`, `<id>_previous_currency`; Amazon's extras; PalletIQ's
 * decision, value and status; the book's isbn, title, author, publisher and publish_year.
 * A missing key reads as empty.
 */
export type OfflineFigures = Readonly<Record<string, Value | undefined>>;

/** The comparison row (COMPARISON_FIELDS' names) of one ISBN, as comparisonTable computes it. */
export type ComparisonValues = Record<string, Value>;

export type FeeSchedulesById = Partial<Record<MarketplaceId, FeeSchedule>>;

/** The statuses a marketplace has while the session waits for its answer (no answer in the pack). */
export const UNANSWERED_STATUS = 'queued';

/** Figures of an ISBN the pack does not hold: every marketplace waiting, as a new scan's lookups are. */
export function unansweredFigures(isbn: string): OfflineFigures {
  return Object.fromEntries([['isbn', isbn], ...COMPARED_MARKETPLACES.map((id) => [statusField(id), UNANSWERED_STATUS])]);
}

const num = (v: Value | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: Value | undefined): string | null => (v === null || v === undefined ? null : String(v));
const cents = (d: Decimal | null): number | null => (d === null ? null : toNumber(round(d, 2)));

/** Level 2 and 3 of the comparison: best price and source, spread, estimated profit, the changes. */
export function comparisonValues(f: OfflineFigures, fees: FeeSchedulesById, costPerBook: number | null): ComparisonValues {
  const row: ComparisonValues = {};
  for (const name of ['isbn', 'title', 'author', 'publisher', 'publish_year'] as const)
    row[name] = name === 'publish_year' ? num(f[name]) : text(f[name]);
  const usd: { id: MarketplaceId; price: number | null; previousUsd: number | null }[] = [];
  for (const s of PRICE_SOURCES) {
    const id = s.marketplace;
    const price = num(f[priceField(id)]);
    const currency = price === null ? null : text(f[currencyField(id)]);
    const previous = num(f[`${id}_previous_price`]);
    const previousCurrency = text(f[`${id}_previous_currency`]);
    row[priceField(id)] = price;
    row[currencyField(id)] = currency;
    row[statusField(id)] = text(f[statusField(id)]);
    row[offersField(id)] = num(f[offersField(id)]);
    // Only between prices in one currency (text equality, NULL never equal).
    row[changeField(id)] =
      price !== null && previous !== null && currency !== null && currency === previousCurrency
        ? cents(sub(decimalOfDouble(price), decimalOfDouble(previous)))
        : null;
    usd.push({
      id,
      price: currency === COMPARISON_CURRENCY ? price : null,
      previousUsd: previousCurrency === COMPARISON_CURRENCY ? previous : null,
    });
  }
  const priced = usd.flatMap((u) => (u.price === null ? [] : [u.price]));
  // LEAST / GREATEST skip NULLs and are NULL only when every argument is.
  const best = priced.length ? Math.min(...priced) : null;
  const worst = priced.length ? Math.max(...priced) : null;
  const previousPriced = usd.flatMap((u) => (u.previousUsd === null ? [] : [u.previousUsd]));
  const previousBest = previousPriced.length ? Math.min(...previousPriced) : null;
  // Ties go to the first price source in the registry's order (the CASE's first WHEN).
  const bestId = best === null ? undefined : usd.find((u) => u.price === best)?.id;
  row.best_price = best;
  row.best_price_change = best !== null && previousBest !== null ? cents(sub(decimalOfDouble(best), decimalOfDouble(previousBest))) : null;
  row.best_source = bestId ? MARKETPLACES[bestId].label : null;
  row.spread = best !== null && worst !== null && priced.length >= 2 ? cents(sub(decimalOfDouble(worst), decimalOfDouble(best))) : null;
  row.estimated_profit = best !== null && bestId ? estimatedProfitAt(best, fees[bestId], costPerBook) : null;
  for (const e of EXTRA_COLUMNS) row[e.name] = num(f[e.name]);
  for (const v of VELOCITY_FIELDS) row[v.name] = v.type === 'number' ? num(f[v.name]) : text(f[v.name]);
  for (const { marketplace: id } of DECISION_SOURCES) {
    row[decisionField(id)] = text(f[decisionField(id)]);
    row[valueField(id)] = num(f[valueField(id)]);
    row[statusField(id)] = text(f[statusField(id)]);
  }
  return row;
}

/** query.ts profitAt: in exact decimal, the commission within its bounds (NULL bounds skipped), rounded to cents once. */
function estimatedProfitAt(best: number, s: FeeSchedule | undefined, costPerBook: number | null): number | null {
  const price = decimalOfDouble(best);
  let afterFees = price;
  if (s) {
    let commission = shift(mul(price, decimalOfText(s.percent)), 2);
    if (s.min_commission !== null && compare(commission, decimalOfText(s.min_commission)) < 0) commission = decimalOfText(s.min_commission);
    if (s.max_commission !== null && compare(commission, decimalOfText(s.max_commission)) > 0) commission = decimalOfText(s.max_commission);
    afterFees = add(sub(sub(price, commission), decimalOfText(s.fixed)), decimalOfText(s.shipping_credit));
  }
  return cents(sub(afterFees, decimalOfText(costPerBook ?? 0)));
}

/** One condition of a rule as stored (its value may have been saved as a number). */
export interface StoredCondition {
  field: string;
  operator: string;
  value: string | number;
}

/** A condition ready to test a row; undefined when filter-sql would refuse it (the rule then never matches). */
type Test = (row: ComparisonValues) => boolean;

const INT4_MAX = 2_147_483_647;

function conditionTest(c: StoredCondition): Test | undefined {
  const def: FieldDef | undefined = RULE_FIELDS.find((d) => d.name === c.field);
  if (!def) return undefined;
  const value = String(c.value);
  const allowed: readonly string[] = def.type === 'text' ? TEXT_OPERATORS : NUMBER_OPERATORS;
  if (!allowed.includes(c.operator)) return undefined;
  const op = c.operator;
  if (def.type === 'text') {
    // `=` is exact; ILIKE '%v%' is a case-insensitive substring (the value's % _ \ are escaped: literal).
    if (op === 'equals') return (row) => row[def.name] === value;
    const needle = value.toLowerCase();
    return (row) => {
      const v = row[def.name];
      return typeof v === 'string' && v.toLowerCase().includes(needle);
    };
  }
  if (def.type === 'number') {
    const n = parseFilterNumber(value);
    if (n === undefined) return undefined;
    if (Number.isInteger(n) && Math.abs(n) <= INT4_MAX)
      return (row) => {
        const v = row[def.name];
        return typeof v === 'number' && holds(op, v < n ? -1 : v > n ? 1 : 0);
      };
    // `col::numeric op 'n'::numeric`: the column's double read to 15 digits, the value exactly.
    const exact = parseDecimal(String(n));
    if (!exact) return undefined;
    return (row) => {
      const v = row[def.name];
      return typeof v === 'number' && holds(op, compare(decimalOfDouble(v), exact));
    };
  }
  const date = parseFilterDate(value);
  if (!date) return undefined;
  const start = date.start.getTime();
  const next = start + 86_400_000;
  return (row) => {
    const v = row[def.name];
    const t = typeof v === 'string' || typeof v === 'number' ? new Date(v).getTime() : Number.NaN;
    if (Number.isNaN(t)) return false;
    if (!date.wholeDay) return holds(op, t < start ? -1 : t > start ? 1 : 0);
    if (op === 'equals') return t >= start && t < next;
    if (op === 'gt') return t >= next;
    if (op === 'gte') return t >= start;
    if (op === 'lt') return t < start;
    return t < next;
  };
}

function holds(op: string, order: number): boolean {
  if (op === 'equals') return order === 0;
  if (op === 'gt') return order > 0;
  if (op === 'gte') return order >= 0;
  if (op === 'lt') return order < 0;
  return order <= 0;
}

export interface CompiledOfflineRule {
  outcome: string;
  color: RuleColor;
  /** All conditions; undefined when the rule can never match (rules-sql.ts compileRules). */
  test: Test | undefined;
}

const isColor = (c: unknown): c is RuleColor => typeof c === 'string' && (RULE_COLORS as readonly string[]).includes(c);

/**
 * A version's rules as stored, read as rules-sql.ts reads them: a rule that cannot be read is
 * "No rule" and never matches; a rule with no condition (the "Otherwise" rule) holds for every row;
 * one with an unknown field, an operator that does not fit its field or a value of the wrong type
 * never matches, and the row falls through.
 */
export function compileOfflineRules(rules: unknown): CompiledOfflineRule[] {
  if (!Array.isArray(rules)) return [];
  return rules.map((raw): CompiledOfflineRule => {
    const r = raw as { outcome?: unknown; color?: unknown; conditions?: unknown } | null;
    const outcome = typeof r?.outcome === 'string' ? r.outcome.trim() : '';
    const conditions = r?.conditions;
    const readable =
      outcome.length >= 1 &&
      outcome.length <= OUTCOME_MAX_LENGTH &&
      typeof r?.color === 'string' &&
      Array.isArray(conditions) &&
      conditions.every(
        (c: unknown) =>
          typeof c === 'object' &&
          c !== null &&
          typeof (c as StoredCondition).field === 'string' &&
          typeof (c as StoredCondition).operator === 'string' &&
          ['string', 'number'].includes(typeof (c as StoredCondition).value),
      );
    if (!readable) return { outcome: NO_RULE, color: 'gray', test: undefined };
    const color = isColor(r?.color) ? r.color : 'gray';
    const tests = (conditions as StoredCondition[]).map(conditionTest);
    // No condition: every row (an empty every() is true), as rules-sql.ts's TRUE.
    const usable = tests.every((t) => t !== undefined);
    return { outcome, color, test: usable ? (row) => tests.every((t) => t?.(row)) : undefined };
  });
}

export interface OfflineOutcome {
  name: string;
  color: RuleColor;
  /** The matching rule's position; null for "No rule". */
  rule_index: number | null;
}

/** The first matching rule's outcome, or "No rule". */
export function judgeRow(rules: readonly CompiledOfflineRule[], row: ComparisonValues): OfflineOutcome {
  for (const [i, r] of rules.entries()) if (r.test?.(row)) return { name: r.outcome, color: r.color, rule_index: i };
  return { name: NO_RULE, color: 'gray', rule_index: null };
}

/** One ISBN's verdict from its pack figures: the comparison row, then the rules. */
export function offlineVerdict(
  figures: OfflineFigures,
  rules: readonly CompiledOfflineRule[],
  fees: FeeSchedulesById,
  costPerBook: number | null,
): { outcome: OfflineOutcome; values: ComparisonValues } {
  const values = comparisonValues(figures, fees, costPerBook);
  return { outcome: judgeRow(rules, values), values };
}
