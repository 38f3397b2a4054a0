// What follows a batch of answers written in the worker's transaction (the write-back and the reuse
// of a recent answer): the stored comparison of the books written is refreshed and their watches
// are evaluated, in as few round trips as the locks allow:
//   1. the stored rows are locked (comparison/stored.ts: computed only in a later statement);
//   2. one statement reads the jobs written and probes their books' and jobs' watches;
//   3. per job, one statement recomputes its stored rows and evaluates its watches on the same rows.
// Issue 34's budget (watches add ≤ 20 % to the write-back) is a few milliseconds per batch of 50, less
// than any statement of their own costs (parsed, planned, sent): so the evaluation rides the refresh.
// A job with no stored rows (created before comparison_rows existed) evaluates in a statement of its own.
import { lockStoredRows, refreshStoredRowsOf } from '../comparison/stored.ts';
import type { Tx } from '../db/client.ts';
import type { LookupTable } from '../db/schema.ts';
import { evaluateProbed, evaluationRider, probeWatches } from '../watches/evaluate.ts';

/** Refreshes the stored comparison of the lookups `lookupIds` of `table` just written in `tx` and evaluates their watches (call after the velocity moved). Returns the alerts written. */
export async function refreshBooksWritten(tx: Tx, table: LookupTable, lookupIds: readonly number[]): Promise<number> {
  if (lookupIds.length === 0) return 0;
  const stored = await lockStoredRows(tx, table, lookupIds);
  // Every job with stored rows is read, also one whose comparison is being stored (storeComparison) and not yet marked.
  const probe = await probeWatches(tx, table, lookupIds, [...stored.keys()]);
  let fired = 0;
  for (const [jobId, keys] of stored) {
    const read = probe.jobs.get(jobId);
    if (!read) continue;
    const list = probe.watches.get(jobId) ?? [];
    fired += (await refreshStoredRowsOf(tx, read.job, keys, list.length ? evaluationRider(read.job, list, probe.fees) : undefined)) ?? 0;
  }
  for (const jobId of probe.watches.keys()) if (!stored.has(jobId)) fired += await evaluateProbed(tx, table, probe, jobId);
  return fired;
}
