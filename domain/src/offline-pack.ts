// The offline pack (/scan without a signal): what GET /api/v1/scan/offline-pack sends and the phone
// keeps. Columnar (one array per figure, in ISBN order), prices in integer cents, repeated texts as
// codes into a small list, so 1M ISBNs stay a few MB once gzipped. Shared by the API that builds it
// and the page that reads it.
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
} from './comparison.ts';
import type { FeeSchedule } from './fees.ts';
import type { MarketplaceId } from './marketplaces.ts';
import { UNANSWERED_STATUS, type OfflineFigures } from './offline-verdict.ts';
import type { RuleColor } from './rules.ts';
import { VELOCITY_FIELDS } from './velocity.ts';

/** 2: the velocity fields joined the pack (a phone's kept pack of format 1 is downloaded again whole). */
export const OFFLINE_PACK_FORMAT = 2;

/** Number columns: `cents` ones are sent as integer cents (prices the comparison already rounded). */
export const PACK_NUMBER_COLUMNS: readonly { name: string; cents: boolean }[] = [
  ...PRICE_SOURCES.flatMap((s) => [
    { name: priceField(s.marketplace), cents: true },
    { name: offersField(s.marketplace), cents: false },
    { name: `${s.marketplace}_previous_price`, cents: false },
  ]),
  ...EXTRA_COLUMNS.map((e) => ({ name: e.name, cents: false })),
  ...DECISION_SOURCES.map((d) => ({ name: valueField(d.marketplace), cents: false })),
  // How fast the book sells (velocity.ts): per ISBN, not per marketplace.
  ...VELOCITY_FIELDS.filter((f) => f.type === 'number').map((f) => ({ name: f.name, cents: false })),
];

/** Text columns, each sent as a list of its distinct values and one code per ISBN (0: empty). */
export const PACK_TEXT_COLUMNS: readonly string[] = [
  ...PRICE_SOURCES.flatMap((s) => [currencyField(s.marketplace), statusField(s.marketplace), `${s.marketplace}_previous_currency`]),
  ...DECISION_SOURCES.flatMap((d) => [decisionField(d.marketplace), statusField(d.marketplace)]),
  ...VELOCITY_FIELDS.filter((f) => f.type !== 'number').map((f) => f.name),
];

/** The statuses the pack has an answer with; any other marketplace of an ISBN is still to ask. */
export const STATUS_COLUMNS: readonly string[] = COMPARED_MARKETPLACES.map(statusField);

export interface CodedText {
  values: string[];
  /** Per ISBN: 0 for empty, else 1 + the value's place in `values`. */
  codes: number[];
}

export interface PackRuleSet {
  id: number;
  name: string;
  is_team_default: boolean;
  version: number;
  version_id: number;
  rules: unknown[];
}

interface PackBase {
  format: typeof OFFLINE_PACK_FORMAT;
  /** Pass as `since` to get only what changed after this pack. */
  version: string;
  /** True: only the ISBNs answered since `since`, to merge into the pack kept; false: the whole pack. */
  delta: boolean;
  days: number;
  built_at: string;
  /** In ascending order. */
  isbns: string[];
}

/** For an account that may see figures: per ISBN the figures, the rule sets and the fee schedules to judge with. */
export interface FiguresPack extends PackBase {
  kind: 'figures';
  numbers: Record<string, (number | null)[]>;
  texts: Record<string, CodedText>;
  rule_sets: PackRuleSet[];
  fees: Partial<Record<MarketplaceId, FeeSchedule>>;
}

export interface PackOutcome {
  name: string;
  color: RuleColor;
}

/** For a "decisions only" account: per ISBN the team default's outcome, and no figure at all. */
export interface VerdictPack extends PackBase {
  kind: 'verdicts';
  rule_set: { id: number; name: string; version: number } | null;
  outcomes: PackOutcome[];
  /** Per ISBN: its outcome's place in `outcomes`. */
  codes: number[];
  /**
   * The outcome of an ISBN the pack does not hold (every marketplace still to ask); null when the
   * rules test the ISBN itself, since the phone has no rules to judge an unknown one with.
   */
  unknown: number | null;
}

export type OfflinePack = FiguresPack | VerdictPack;

/** The ISBN's place in the pack, or -1 (binary search: the ISBNs are sorted). */
export function packIndex(isbns: readonly string[], isbn: string): number {
  let [lo, hi] = [0, isbns.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = isbns[mid] as string;
    if (v === isbn) return mid;
    if (v < isbn) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The figures of the ISBN at `i` as the evaluator reads them; a marketplace without an answer is still to ask. */
export function figuresAt(pack: FiguresPack, i: number): OfflineFigures {
  const out: Record<string, string | number | null> = { isbn: pack.isbns[i] ?? null };
  for (const c of PACK_NUMBER_COLUMNS) {
    const v = pack.numbers[c.name]?.[i] ?? null;
    out[c.name] = v === null ? null : c.cents ? v / 100 : v;
  }
  for (const name of PACK_TEXT_COLUMNS) {
    const t = pack.texts[name];
    const code = t?.codes[i] ?? 0;
    out[name] = code === 0 ? null : (t?.values[code - 1] ?? null);
  }
  for (const s of STATUS_COLUMNS) out[s] ??= UNANSWERED_STATUS;
  return out;
}

/** The pack kept with a delta merged in: the delta's ISBNs replace or join the kept ones, still in order. */
export function mergeFiguresPack(kept: FiguresPack, delta: FiguresPack): FiguresPack {
  const order = mergeOrder(kept.isbns, delta.isbns);
  const pick = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined, empty: T) =>
    order.map(([from, i]) => (from === 0 ? a : b)?.[i] ?? empty);
  const numbers: FiguresPack['numbers'] = {};
  for (const c of PACK_NUMBER_COLUMNS) numbers[c.name] = pick(kept.numbers[c.name], delta.numbers[c.name], null);
  const texts: FiguresPack['texts'] = {};
  for (const name of PACK_TEXT_COLUMNS) {
    const [a, b] = [kept.texts[name] ?? { values: [], codes: [] }, delta.texts[name] ?? { values: [], codes: [] }];
    const values = [...a.values];
    // The delta's codes re-coded into the kept list.
    const recode = b.values.map((v) => {
      const at = values.indexOf(v);
      if (at >= 0) return at + 1;
      values.push(v);
      return values.length;
    });
    const codes = order.map(([from, i]) => (from === 0 ? (a.codes[i] ?? 0) : (recode[(b.codes[i] ?? 0) - 1] ?? 0)));
    texts[name] = { values, codes };
  }
  return { ...delta, delta: false, isbns: order.map(([from, i]) => (from === 0 ? kept.isbns : delta.isbns)[i] as string), numbers, texts };
}

/** The verdict pack kept with a delta merged in. */
export function mergeVerdictPack(kept: VerdictPack, delta: VerdictPack): VerdictPack {
  const order = mergeOrder(kept.isbns, delta.isbns);
  const outcomes = [...kept.outcomes];
  const recode = delta.outcomes.map((o) => {
    const at = outcomes.findIndex((x) => x.name === o.name && x.color === o.color);
    if (at >= 0) return at;
    outcomes.push(o);
    return outcomes.length - 1;
  });
  return {
    ...delta,
    delta: false,
    outcomes,
    unknown: delta.unknown === null ? null : (recode[delta.unknown] ?? null),
    isbns: order.map(([from, i]) => (from === 0 ? kept.isbns : delta.isbns)[i] as string),
    codes: order.map(([from, i]) => (from === 0 ? (kept.codes[i] ?? 0) : (recode[delta.codes[i] ?? 0] ?? 0))),
  };
}

/** Where each ISBN of the merge comes from ([0, i]: kept, [1, i]: delta, which wins a tie), in order. */
function mergeOrder(kept: readonly string[], delta: readonly string[]): [0 | 1, number][] {
  const out: [0 | 1, number][] = [];
  let [i, j] = [0, 0];
  while (i < kept.length || j < delta.length) {
    const [a, b] = [kept[i], delta[j]];
    if (b === undefined || (a !== undefined && a < b)) out.push([0, i++]);
    else {
      if (a === b) i++;
      out.push([1, j++]);
    }
  }
  return out;
}
