// A scan judged from the offline pack (no signal): the figures pack runs the domain's evaluator
// with the session's rule set (the same outcome the server's SQL gives: backend/test/offline-verdict.int.test.ts);
// the verdict pack of a "decisions only" account reads the outcome it holds.
import { figuresAt, packIndex, type OfflinePack } from '@app/domain/offline-pack';
import { compileOfflineRules, offlineVerdict, unansweredFigures } from '@app/domain/offline-verdict';
import type { RuleColor } from '@app/domain/rules';

export interface OfflineJudgement {
  isbn: string;
  /** null: no rule set to judge with, or the ISBN cannot be judged without the signal. */
  outcome: { name: string; color: RuleColor } | null;
  /** Whether the pack held an answer for the ISBN (else it was judged as still to ask). */
  known: boolean;
  rule_set: string | null;
}

export interface JudgeWith {
  /** The session's rule set (or the one picked for a new session); the team default when absent or not in the pack. */
  ruleSetId?: number | null;
  costPerBook: number | null;
}

export function judgeOffline(pack: OfflinePack, isbn: string, w: JudgeWith): OfflineJudgement {
  const at = packIndex(pack.isbns, isbn);
  if (pack.kind === 'verdicts') {
    const code = at >= 0 ? pack.codes[at] : pack.unknown;
    const outcome = code === null || code === undefined ? null : (pack.outcomes[code] ?? null);
    return { isbn, outcome, known: at >= 0, rule_set: pack.rule_set?.name ?? null };
  }
  const set = pack.rule_sets.find((r) => r.id === w.ruleSetId) ?? pack.rule_sets.find((r) => r.is_team_default);
  if (!set) return { isbn, outcome: null, known: at >= 0, rule_set: null };
  const { outcome } = offlineVerdict(
    at >= 0 ? figuresAt(pack, at) : unansweredFigures(isbn),
    compileOfflineRules(set.rules),
    pack.fees,
    w.costPerBook,
  );
  return { isbn, outcome: { name: outcome.name, color: outcome.color }, known: at >= 0, rule_set: set.name };
}

/** "5 min", "3 h", "2 days": how old the pack is. */
export function packAge(savedAt: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(savedAt)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

/** Bytes as people read them: 840 kB, 12.3 MB. */
export function packSize(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
