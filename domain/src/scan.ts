// A scan session (the /scan page): a job of Input Filename SCAN_SESSION_FILENAME that each scan adds
// its ISBN to, so the job page, comparison, decisions, CSVs and audit trail work on it unchanged.
// Shared by the API (names, limits, messages) and the page.

/** The Input Filename of a scan session's job (no upload can be named so: it has no extension). */
export const SCAN_SESSION_FILENAME = 'scan session';

/** A place is optional ("Church sale, Elm St."); the job's name is built from it. */
export const SCAN_PLACE_MAX_LENGTH = 120;

/** "Scan 2026-11-27" or "Scan 2026-11-27 · Church sale": the session's job name, from the day it started (UTC). */
export function scanSessionName(startedAt: Date, place?: string | null): string {
  const day = startedAt.toISOString().slice(0, 10);
  const where = place?.trim();
  return where ? `Scan ${day} · ${where}` : `Scan ${day}`;
}

/** What a scan may be marked: bought (it goes on the session's totals) or left on the table. */
export const SCAN_MARKS = ['bought', 'left'] as const;
export type ScanMark = (typeof SCAN_MARKS)[number];

/**
 * A verdict is final once every marketplace the session asks has answered this ISBN (fresh enough to
 * reuse, or asked now); until then it is provisional, judged on what is known.
 */
export type VerdictState = 'final' | 'provisional';

export const SCAN_MESSAGES = {
  noRuleSet: 'No rule set yet: make one on the Rules page (or ask a superuser to set a team default) to get a verdict per scan.',
  decisionsOnly: 'Your account shows decisions only.',
} as const;
