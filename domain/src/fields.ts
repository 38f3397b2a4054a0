// Field tables: the single source for filter validation, SQL, sort whitelists, CSV headers,
// the filter builder's options and the tables' columns.

export type FieldType = 'text' | 'number' | 'date';

export interface FieldDef {
  /** API / column name (snake_case, as the specification names it). */
  name: string;
  /** Human label used in table headers, the filter builder and CSV headers. */
  label: string;
  type: FieldType;
  filterable: boolean;
  sortable: boolean;
  /** Shown as a column on the page (and in the CSV export). */
  column: boolean;
  /** Never empty (NOT NULL in the database): sorts need no NULLS clause, schemas are not nullable. */
  required?: boolean;
  /** Rendered as an external link. */
  link?: boolean;
  /** A number that is an amount of money: shown with two decimals and its currency, right-aligned. */
  format?: 'money';
  /** The row's field holding the amount's currency code; without one the amount is in USD. */
  currencyField?: string;
  /**
   * Sorted by this other column of the row instead of its own value (a rank the row carries but does
   * not show, e.g. a decision by its rule's position). Ordered as PostgreSQL orders it by default:
   * empties last ascending, first descending, so one ascending index serves both directions.
   */
  sortColumn?: string;
}

/** Currency of money fields whose marketplace names none. */
export const DEFAULT_CURRENCY = 'USD';

/** A money field: a number column formatted as an amount (in `currencyField`'s currency, else USD). */
export const money = (f: FieldDef, currencyField?: string): FieldDef => ({
  ...f,
  format: 'money',
  ...(currencyField ? { currencyField } : {}),
});

/** The currency code of a money field's value in one row. */
export function currencyOf(f: FieldDef, row: Record<string, unknown>): string {
  const code = f.currencyField ? row[f.currencyField] : undefined;
  return typeof code === 'string' && /^[A-Za-z]{3}$/.test(code) ? code.toUpperCase() : DEFAULT_CURRENCY;
}

export const TEXT_OPERATORS = ['equals', 'contains'] as const;
export const NUMBER_OPERATORS = ['equals', 'gt', 'lt', 'gte', 'lte'] as const;
export type FilterOperator = (typeof TEXT_OPERATORS)[number] | (typeof NUMBER_OPERATORS)[number];

export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  equals: 'equals',
  contains: 'contains',
  gt: 'greater than',
  lt: 'less than',
  gte: 'greater or equal',
  lte: 'less or equal',
};

export function operatorsFor(type: FieldType): readonly FilterOperator[] {
  return type === 'text' ? TEXT_OPERATORS : NUMBER_OPERATORS;
}

export interface Filter {
  field: string;
  operator: FilterOperator;
  value: string;
}

export type SortDirection = 'asc' | 'desc';

/** Shorthand used by the tables below: every field filterable and sortable unless said otherwise. */
export function field(
  name: string,
  label: string,
  type: FieldType = 'text',
  opts: Partial<Pick<FieldDef, 'filterable' | 'sortable' | 'column' | 'link'>> = {},
): FieldDef {
  return { name, label, type, filterable: true, sortable: true, column: false, ...opts };
}

export const col = (name: string, label: string, type: FieldType = 'text', link = false): FieldDef =>
  field(name, label, type, { column: true, link });
