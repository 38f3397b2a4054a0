// Which rule sets a user may judge with (their own or the team default, not deleted): the current
// version of one, and the list. The rule set API (rules/) owns them and reads a version by id
// (readRuleSetVersion); this reads only.
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ruleSetVersions, ruleSets } from '../db/schema.ts';
import { validationError } from '../lib/http-errors.ts';
import type { UserRow } from '../users/schemas.ts';
import type { Rule } from '@app/domain/rules';
import { type RuleSetVersion, versionColumns } from '../rules/repository.ts';

/** Rule sets `user` may judge with: their own and the team default, while not deleted. */
const usableBy = (user: UserRow) =>
  and(isNull(ruleSets.deleted_at), or(eq(ruleSets.owner_id, user.id), eq(ruleSets.is_team_default, true)));

/** The newest version of each rule set. */
const isCurrent = sql`${ruleSetVersions.version} = (SELECT max(v.version) FROM ${ruleSetVersions} v WHERE v.rule_set_id = ${ruleSets.id})`;

/** The current version of a rule set the user may judge with; else a 422 naming rule_set_id. */
export async function currentUsableVersion(db: Db, user: UserRow, ruleSetId: number): Promise<RuleSetVersion> {
  const [row] = await db
    .select(versionColumns)
    .from(ruleSets)
    .innerJoin(ruleSetVersions, eq(ruleSetVersions.rule_set_id, ruleSets.id))
    .where(and(eq(ruleSets.id, ruleSetId), usableBy(user), isCurrent));
  if (!row) throw validationError(['body', 'rule_set_id'], 'No rule set of yours or the team default has this id');
  return { ...row, rules: row.rules as Rule[] };
}

/** The rule sets a user may judge with, the team default first, then by name, each with its current version. */
export function listUsableRuleSets(db: Db, user: UserRow) {
  return db
    .select({
      id: ruleSets.id,
      name: ruleSets.name,
      is_team_default: ruleSets.is_team_default,
      version: ruleSetVersions.version,
      version_id: ruleSetVersions.id,
    })
    .from(ruleSets)
    .innerJoin(ruleSetVersions, eq(ruleSetVersions.rule_set_id, ruleSets.id))
    .where(and(usableBy(user), isCurrent))
    .orderBy(desc(ruleSets.is_team_default), ruleSets.name, ruleSets.id);
}
