// Rule sets written straight into the database for tests of judging (the rule set API lives in
// rules/; these tests only need rows to judge with).
import { sql } from 'drizzle-orm';
import type { Rule } from '@app/domain/rules';
import type { Db } from '../../src/db/client.ts';

/** A rule set with its first version; returns the set's and the version's ids. */
export async function insertRuleSet(db: Db, ownerId: string, name: string, rules: unknown[], opts: { teamDefault?: boolean } = {}) {
  const { rows } = await db.execute<{ id: number }>(
    sql`INSERT INTO rule_sets (owner_id, name, is_team_default) VALUES (${ownerId}, ${name}, ${opts.teamDefault ?? false}) RETURNING id`,
  );
  const id = rows[0]!.id;
  return { id, versionId: await addVersion(db, id, rules) };
}

/** An edit of the rule set: its next version; returns the version's id. */
export async function addVersion(db: Db, ruleSetId: number, rules: unknown[]): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(
    sql`INSERT INTO rule_set_versions (rule_set_id, version, rules)
        SELECT ${ruleSetId}::int, coalesce(max(version), 0) + 1, ${JSON.stringify(rules)}::jsonb FROM rule_set_versions WHERE rule_set_id = ${ruleSetId}::int
        RETURNING id`,
  );
  return rows[0]!.id;
}

export const rule = (outcome: string, color: Rule['color'], conditions: [string, string, string | number][]) => ({
  outcome,
  color,
  conditions: conditions.map(([field, operator, value]) => ({ field, operator, value })),
});
