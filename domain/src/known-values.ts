// Fields whose every value is known in advance: a filter or rule condition on them offers those
// values in a list instead of a text box (a dealer typing "complete" or "abe books" never matched).
// Each list is taken from where the values are made, so a new status or marketplace shows up here.
import { DECISION_SOURCES, PRICE_SOURCES, decisionField, statusField } from './comparison.ts';
import { MARKETPLACE_IDS, MARKETPLACES } from './marketplaces.ts';
import { LOOKUP_STATUSES } from './status.ts';
import { VELOCITY_SOURCES } from './velocity.ts';

/** Best Source holds the selling marketplace's label, as the comparison's SQL writes it. */
const BEST_SOURCES = PRICE_SOURCES.map((s) => MARKETPLACES[s.marketplace].label);

const KNOWN: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ['lookup_status', LOOKUP_STATUSES],
  ...MARKETPLACE_IDS.map((id) => [statusField(id), LOOKUP_STATUSES] as const),
  ['best_source', BEST_SOURCES],
  // An advising marketplace's decision, in the comparison and in its own lookups (its entry's values).
  ...DECISION_SOURCES.flatMap((d) => [[decisionField(d.marketplace), d.values] as const, [d.decision, d.values] as const]),
  ['velocity_source', VELOCITY_SOURCES],
]);

/** The values a field (of the comparison or a marketplace's lookups) can hold, when they are known. */
export const knownValues = (field: string): readonly string[] | undefined => KNOWN.get(field);
