// Filters of the filter builder and the `filters` search param that carries them (docs/requirements.md,
// Tables): a JSON list of {field, operator, value}, checked against the page's field table.
import { OPERATOR_LABELS, operatorsFor, type FieldDef, type Filter, type FilterOperator } from '@app/domain/fields';
import { knownValues } from '@app/domain/known-values';

export type { Filter };

/** The fields a filter builder offers: the table's filterable ones, in table order. */
export function filterableFields(fields: readonly FieldDef[]): FieldDef[] {
  return fields.filter((f) => f.filterable);
}

/** Operators (value + label) for a field, e.g. text → equals, contains. */
export function operatorOptions(field: FieldDef | undefined): { value: FilterOperator; label: string }[] {
  return operatorsFor(field?.type ?? 'text').map((op) => ({ value: op, label: OPERATOR_LABELS[op] }));
}

/** A new filter starts on the first field, 'equals', empty value. */
export function newFilter(fields: readonly FieldDef[]): Filter {
  return { field: filterableFields(fields)[0]?.name ?? '', operator: 'equals', value: '' };
}

/** After the field changes, keep the operator only if the new field offers it, and the value only if it may hold it. */
export function withField(filter: Filter, fieldName: string, fields: readonly FieldDef[]): Filter {
  const def = fields.find((f) => f.name === fieldName);
  const ops = operatorsFor(def?.type ?? 'text');
  const known = knownValues(fieldName);
  const value = known && !known.includes(filter.value) ? '' : filter.value;
  return { field: fieldName, operator: ops.includes(filter.operator) ? filter.operator : 'equals', value };
}

/** Rows without a value mean nothing yet; they are not sent. */
export function completeFilters(filters: readonly Filter[]): Filter[] {
  return filters.filter((f) => f.value.trim() !== '');
}

/** The `filters` search param for a list: undefined when empty, so the URL stays clean. */
export function encodeFilters(filters: readonly Filter[]): string | undefined {
  return filters.length ? JSON.stringify(filters.map(({ field, operator, value }) => ({ field, operator, value }))) : undefined;
}

function isFilter(x: unknown, fields: readonly FieldDef[]): x is Filter {
  if (!x || typeof x !== 'object') return false;
  const { field, operator, value } = x as Record<string, unknown>;
  const def = fields.find((f) => f.name === field && f.filterable);
  return !!def && typeof operator === 'string' && operatorsFor(def.type).includes(operator as FilterOperator) && typeof value === 'string';
}

/**
 * Reads the `filters` param. The router may hand over the raw JSON text or, when the URL held
 * unquoted JSON, the already parsed list. Anything that is not a list of filters on this table's
 * fields is logged and read as no filters.
 */
export function decodeFilters(raw: unknown, fields: readonly FieldDef[], log: (...args: unknown[]) => void = console.error): Filter[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      log('Could not parse the filters search param; showing no filters.', raw, err);
      return [];
    }
  }
  if (!Array.isArray(parsed) || !parsed.every((f) => isFilter(f, fields))) {
    log('Invalid filters search param; showing no filters.', raw);
    return [];
  }
  return parsed.map(({ field, operator, value }: Filter) => ({ field, operator, value }));
}

/** The jobs table's 'View' link: that source's lookups of one job. */
export function jobIdFilter(jobId: number): Filter {
  return { field: 'isbn_lookup_job_id', operator: 'equals', value: String(jobId) };
}
