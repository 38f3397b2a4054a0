// PalletIQ evaluation → pallet_iq_price_lookups columns (marketplaces.md §4).
// No public document describes PalletIQ: the nested paths are our assumed contract, read off the
// spec's flattened names (winner_amazon_log_data_* = winner.amazon.log_data.*). Correct them here.
import { defineMapping } from '../field-mapping.ts';

export const palletIqMapping = defineMapping('pallet_iq', [
  // A decision string, e.g. keep / sell / reject (assumed).
  { field: 'winner_amazon_log_data_mp_decision', wire: 'winner.amazon.log_data.mp_decision', evidence: 'UNKNOWN' },
  // The spec labels it "PalletIQ Profit": a number in currency (assumed).
  { field: 'winner_amazon_log_data_mm_val', wire: 'winner.amazon.log_data.mm_val', evidence: 'UNKNOWN' },
]);
