// The job page's comparison across marketplaces: one row per ISBN of a job with each selling
// marketplace's chosen (cheapest) price, the best source, the spread and PalletIQ's verdict.
// Its field table drives the filter builder, the API's filters and sort, the columns and the CSV,
// like the marketplaces' own tables.
import { col, field, money, type FieldDef } from './fields.ts';
import {
  MARKETPLACE_LIST,
  type DecisionFacts,
  type ExtraColumnFacts,
  type MarketplaceFacts,
  type MarketplaceId,
  type SellingFacts,
} from './marketplaces.ts';
import { VELOCITY_FIELDS } from './velocity.ts';

/** Best price and spread compare only prices in this currency: prices are never converted. */
export const COMPARISON_CURRENCY = 'USD';

/** Where a selling marketplace's price lives in its lookup row: its entry's `selling` (domain/src/marketplaces.ts). */
export interface PriceSource<Id extends string = MarketplaceId> extends Omit<SellingFacts, 'fees' | 'extraColumns'> {
  marketplace: Id;
}

/** One of a marketplace's lookup columns the comparison shows as it is. */
export interface ExtraColumn<Id extends string = MarketplaceId> extends ExtraColumnFacts {
  marketplace: Id;
}

/** An advising marketplace's decision and value columns: its entry's `decision`. */
export interface DecisionSource<Id extends string = MarketplaceId> extends DecisionFacts {
  marketplace: Id;
}

/** The price sources of a registry: its selling marketplaces, in registry order. */
export function priceSourcesOf<Id extends string>(registry: readonly MarketplaceFacts<Id>[]): PriceSource<Id>[] {
  return registry.flatMap((m) => {
    if (!m.selling) return [];
    const { fees: _fees, extraColumns: _extra, ...price } = m.selling;
    return [{ marketplace: m.id, ...price }];
  });
}

export function extraColumnsOf<Id extends string>(registry: readonly MarketplaceFacts<Id>[]): ExtraColumn<Id>[] {
  return registry.flatMap((m) => (m.selling?.extraColumns ?? []).map((e) => ({ marketplace: m.id, ...e })));
}

export function decisionSourcesOf<Id extends string>(registry: readonly MarketplaceFacts<Id>[]): DecisionSource<Id>[] {
  return registry.flatMap((m) => (m.decision ? [{ marketplace: m.id, ...m.decision }] : []));
}

export const PRICE_SOURCES: readonly PriceSource[] = priceSourcesOf(MARKETPLACE_LIST);
export const EXTRA_COLUMNS: readonly ExtraColumn[] = extraColumnsOf(MARKETPLACE_LIST);
export const DECISION_SOURCES: readonly DecisionSource[] = decisionSourcesOf(MARKETPLACE_LIST);

/** An advising marketplace's decision and value in the comparison row. */
export const decisionField = (id: string) => `${id}_decision`;
export const valueField = (id: string) => `${id}_value`;

/** The comparison's decision column, and the hidden rank it sorts by (the rule's position). */
export const DECISION_FIELD = 'decision';
export const DECISION_RANK = 'decision_rank';

/** Names of a price source's columns in the comparison row. */
export const priceField = (id: string) => `${id}_price`;
export const currencyField = (id: string) => `${id}_currency`;
export const statusField = (id: string) => `${id}_status`;
/** The price's change since the previous look at the ISBN on that marketplace (price history). */
export const changeField = (id: string) => `${id}_change`;
/** How many offers the marketplace's answer had. */
export const offersField = (id: string) => `${id}_offers`;
/** The best USD price now minus the best of the previous looks' USD prices. */
export const BEST_PRICE_CHANGE = 'best_price_change';

/** Change columns, shown with their direction (▼ / ▲) rather than a sign. */
export const CHANGE_FIELDS: ReadonlySet<string> = new Set([...PRICE_SOURCES.map((s) => changeField(s.marketplace)), BEST_PRICE_CHANGE]);

/** The marketplaces with columns in the comparison: the selling ones, then the advising ones. */
const comparedOf = <Id extends string>(registry: readonly MarketplaceFacts<Id>[]) => [
  ...registry.filter((m) => m.selling),
  ...registry.filter((m) => m.decision && !m.selling),
];

/**
 * Every comparison column of a registry's marketplaces. `id` is the row's place in the upload (the
 * first enabled marketplace's lookup id): the default order and the tie-breaker of every sort; it is
 * not shown.
 */
export function comparisonFieldsOf(registry: readonly MarketplaceFacts[]): FieldDef[] {
  const selling = registry.filter((m) => m.selling);
  return [
    { ...field('id', 'Row', 'number', { filterable: false }), required: true },
    { ...col('isbn', 'ISBN'), required: true },
    // Open Library's book details (book_details) first; the marketplaces' listing titles fill in.
    col('title', 'Title'),
    col('author', 'Author'),
    col('publisher', 'Publisher'),
    col('publish_year', 'Year', 'number'),
    ...selling.map((m) => money(col(priceField(m.id), m.label, 'number'), currencyField(m.id))),
    money(col('best_price', 'Best Price', 'number')),
    col('best_source', 'Best Source'),
    // The outcome of the first matching buy rule (decisions/ stores it when the job is judged), sorted
    // in rule order ("No rule" last); empty while the job was never judged.
    { ...col(DECISION_FIELD, 'Decision'), sortColumn: DECISION_RANK },
    money(col('spread', 'Spread', 'number')),
    // Selling at the best price, after the best source's fees and the job's cost per book (domain/src/fees.ts).
    money(col('estimated_profit', 'Estimated Profit', 'number')),
    ...extraColumnsOf(registry).map((e) => (e.money ? money(col(e.name, e.label, 'number')) : col(e.name, e.label, 'number'))),
    // How fast the book sells, from its Amazon sales rank over time (velocity.ts; docs/features/velocity.md).
    ...VELOCITY_FIELDS.map(({ stored: _, ...f }) => f),
    ...registry
      .filter((m) => m.decision)
      .flatMap((m) => [col(decisionField(m.id), `${m.label} Decision`), money(col(valueField(m.id), `${m.label} Value`, 'number'))]),
    // Change since the previous look (price history): empty until an ISBN was looked at twice in one currency.
    ...selling.map((m) => money(col(changeField(m.id), `${m.label} Change`, 'number'), currencyField(m.id))),
    money(col(BEST_PRICE_CHANGE, 'Best Price Change', 'number')),
    // Not shown as columns; filterable, and in the CSV.
    ...selling.map((m) => field(currencyField(m.id), `${m.label} Currency`)),
    ...selling.map((m) => field(offersField(m.id), `${m.label} Offers`, 'number')),
    ...comparedOf(registry).map((m) => field(statusField(m.id), `${m.label} Status`)),
  ];
}

/** The CSV's columns: everything but the internal row id. */
export const comparisonCsvFieldsOf = (fields: readonly FieldDef[]): FieldDef[] => fields.filter((f) => f.name !== 'id');

export const COMPARISON_FIELDS: readonly FieldDef[] = comparisonFieldsOf(MARKETPLACE_LIST);
export const COMPARISON_CSV_FIELDS: readonly FieldDef[] = comparisonCsvFieldsOf(COMPARISON_FIELDS);

/** The marketplaces that have a status column in the comparison, in its order. */
export const COMPARED_MARKETPLACES: readonly MarketplaceId[] = comparedOf(MARKETPLACE_LIST).map((m) => m.id);

/** The marketplace a comparison column belongs to (its data is absent when the job does not ask it). */
export function comparisonFieldSource(name: string): MarketplaceId | undefined {
  return COMPARED_MARKETPLACES.find((id) => name.startsWith(`${id}_`));
}
