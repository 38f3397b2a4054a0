// PalletIQ answer → pallet_iq_price_lookups columns. PalletIQ publishes no documentation; what is
// known comes from public client code that calls it (docs/marketplaces/palletiq.md):
//   GET https://api.palletiq.com/v1/isbn/{isbn}/0?token=<key>
//   → {status, meta:{title, asin, image_url, weight}, winner:{amazonLogData:{fba_decision, …}}}
// The specification's winner_amazon_log_data_* columns are the snake case of winner.amazonLogData.*,
// so mp_decision and mm_val are read there (INFERRED: no public client reads those two keys).
// Value types are UNKNOWN: a decision may be a boolean or a word, so both are kept as text.
import { defineMapping, toText } from '../field-mapping.ts';

/** true/false as "true"/"false" (how a dealer filters them), a word as it is. */
const decision = (value: unknown) => (typeof value === 'boolean' ? String(value) : toText(value));

export const palletIqMapping = defineMapping('pallet_iq', [
  { field: 'winner_amazon_log_data_mp_decision', wire: 'winner.amazonLogData.mp_decision', evidence: 'INFERRED', convert: decision },
  // The spec labels it "PalletIQ Profit": read as a number in USD (UNKNOWN unit).
  { field: 'winner_amazon_log_data_mm_val', wire: 'winner.amazonLogData.mm_val', evidence: 'INFERRED' },
  // Read by the public widget: the rest of the answer is certain to exist, its types are not.
  { field: 'fba_decision', wire: 'winner.amazonLogData.fba_decision', evidence: 'CERTAIN', convert: decision },
  { field: 'title', wire: 'meta.title', evidence: 'CERTAIN' },
  { field: 'asin', wire: 'meta.asin', evidence: 'CERTAIN' },
  { field: 'image_url', wire: 'meta.image_url', evidence: 'CERTAIN' },
  // Unit UNKNOWN (the public sample's magnitude suggests grams).
  { field: 'weight', wire: 'meta.weight', evidence: 'CERTAIN' },
]);
