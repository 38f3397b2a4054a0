// Buy rule sets in the database. A rule set's rules live in versions: every edit adds one and never
// changes an older one, because jobs point at the version they were judged with. Deleting a set only
// marks it, so those versions stay readable (readRuleSetVersion) while the set leaves every list.
// The team default decides every member's new jobs: once a set is it, only a superuser may change
// or delete it (its owner gets TEAM_DEFAULT_LOCKED). Every change runs its audit step (`step`) in
// its own transaction.
import { must } from '@app/domain/must';
import type { Rule, RuleSetInput } from '@app/domain/rules';
import { and, count, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import type { TxStep } from '../db/tx-step.ts';
import { ruleSets, ruleSetVersions, users } from '../db/schema.ts';
import type { UserRow } from '../users/schemas.ts';
import type { Page } from '../db/page.ts';
import { ownedBy } from '../db/owned-by.ts';

/** One version of a rule set's rules (rules were validated when written). */
export interface RuleSetVersion {
  id: number;
  rule_set_id: number;
  version: number;
  /** The set's name (names are not versioned: a rename shows on every version). */
  name: string;
  rules: Rule[];
  created_at: Date;
}

/** A rule set with one of its versions, as the API shows it. */
export interface RuleSetView {
  id: number;
  name: string;
  owner_id: string;
  owner_email: string;
  is_team_default: boolean;
  created_at: Date;
  updated_at: Date;
  version: number;
  version_id: number;
  rules: Rule[];
}

const live = isNull(ruleSets.deleted_at);
/** Sets a user may read: their own and the team default; superusers all. Deleted ones are gone. */
const readableBy = (user: UserRow): SQL | undefined =>
  and(live, user.is_superuser ? undefined : or(eq(ruleSets.owner_id, user.id), eq(ruleSets.is_team_default, true)));
/** Sets a user may change: their own; superusers all. */
const editableBy = (user: UserRow): SQL | undefined => and(live, ownedBy(ruleSets.owner_id, user));
/** The newest version of the set in the row (the unique (rule_set_id, version) index serves max). */
const isCurrentVersion = eq(
  ruleSetVersions.version,
  sql`(SELECT max(v.version) FROM ${ruleSetVersions} v WHERE v.rule_set_id = ${ruleSets.id})`,
);

/** A version's columns with its set's name, as RuleSetVersion reads them (the judge's reads use them too). */
export const versionColumns = {
  id: ruleSetVersions.id,
  rule_set_id: ruleSetVersions.rule_set_id,
  version: ruleSetVersions.version,
  name: ruleSets.name,
  rules: ruleSetVersions.rules,
  created_at: ruleSetVersions.created_at,
};

const viewColumns = {
  id: ruleSets.id,
  name: ruleSets.name,
  owner_id: ruleSets.owner_id,
  owner_email: users.email,
  is_team_default: ruleSets.is_team_default,
  created_at: ruleSets.created_at,
  updated_at: ruleSets.updated_at,
  version: ruleSetVersions.version,
  version_id: ruleSetVersions.id,
  rules: ruleSetVersions.rules,
};

const asVersion = (row: Omit<RuleSetVersion, 'rules'> & { rules: unknown[] }): RuleSetVersion => ({ ...row, rules: row.rules as Rule[] });
const asView = (row: Omit<RuleSetView, 'rules'> & { rules: unknown[] }): RuleSetView => ({ ...row, rules: row.rules as Rule[] });

function views(db: Db | Tx, where: SQL | undefined, version?: number) {
  return db
    .select(viewColumns)
    .from(ruleSets)
    .innerJoin(users, eq(users.id, ruleSets.owner_id))
    .innerJoin(ruleSetVersions, eq(ruleSetVersions.rule_set_id, ruleSets.id))
    .where(and(where, version === undefined ? isCurrentVersion : eq(ruleSetVersions.version, version)));
}

// ---- For judging (the judge reads versions; it never needs to know who may edit them) ----

/** A version by its id, whether or not its set was deleted since: jobs keep reading what judged them. */
export async function readRuleSetVersion(db: Db | Tx, versionId: number): Promise<RuleSetVersion | undefined> {
  const [row] = await db
    .select(versionColumns)
    .from(ruleSetVersions)
    .innerJoin(ruleSets, eq(ruleSets.id, ruleSetVersions.rule_set_id))
    .where(eq(ruleSetVersions.id, versionId));
  return row && asVersion(row);
}

/** The newest version of a live (not deleted) rule set. */
export async function currentVersion(db: Db | Tx, ruleSetId: number): Promise<RuleSetVersion | undefined> {
  const [row] = await db
    .select(versionColumns)
    .from(ruleSets)
    .innerJoin(ruleSetVersions, eq(ruleSetVersions.rule_set_id, ruleSets.id))
    .where(and(eq(ruleSets.id, ruleSetId), live, isCurrentVersion));
  return row && asVersion(row);
}

/** The newest version of the team default rule set, when a superuser chose one. */
export async function teamDefaultVersion(db: Db | Tx): Promise<RuleSetVersion | undefined> {
  const [row] = await db
    .select(versionColumns)
    .from(ruleSets)
    .innerJoin(ruleSetVersions, eq(ruleSetVersions.rule_set_id, ruleSets.id))
    .where(and(eq(ruleSets.is_team_default, true), live, isCurrentVersion));
  return row && asVersion(row);
}

// ---- For the API ----

export async function listRuleSets(db: Db, user: UserRow, page: Page): Promise<{ data: RuleSetView[]; count: number }> {
  const where = readableBy(user);
  const [data, counted] = await Promise.all([
    views(db, where)
      .orderBy(desc(ruleSets.is_team_default), desc(ruleSets.created_at), desc(ruleSets.id))
      .offset(page.skip)
      .limit(page.limit),
    db.select({ n: count() }).from(ruleSets).where(where),
  ]);
  return { data: data.map(asView), count: Number(counted[0]?.n ?? 0) };
}

/** A set the user may read, at its current version or the one asked for. */
export async function readRuleSet(db: Db | Tx, user: UserRow, id: number, version?: number): Promise<RuleSetView | undefined> {
  const [row] = await views(db, and(eq(ruleSets.id, id), readableBy(user)), version);
  return row && asView(row);
}

/** Every version of a set the user may read, newest first; undefined when the set is not theirs to read. */
export async function listVersions(db: Db, user: UserRow, id: number): Promise<RuleSetVersion[] | undefined> {
  const [set] = await db
    .select({ id: ruleSets.id })
    .from(ruleSets)
    .where(and(eq(ruleSets.id, id), readableBy(user)));
  if (!set) return undefined;
  const rows = await db
    .select(versionColumns)
    .from(ruleSetVersions)
    .innerJoin(ruleSets, eq(ruleSets.id, ruleSetVersions.rule_set_id))
    .where(eq(ruleSetVersions.rule_set_id, id))
    .orderBy(desc(ruleSetVersions.version));
  return rows.map(asVersion);
}

/** Why a change was not made: not a set the user may change (or gone), or the team default and they are not a superuser. */
export type Refusal = 'not_found' | 'team_default';

/** A new rule set at version 1, owned by the user. */
export async function createRuleSet(db: Db, owner: UserRow, input: RuleSetInput, step?: TxStep<RuleSetView>): Promise<RuleSetView> {
  return db.transaction(async (tx) => {
    const [set] = await tx.insert(ruleSets).values({ owner_id: owner.id, name: input.name }).returning({ id: ruleSets.id });
    const id = must(set, 'the written rule set comes back').id;
    await tx.insert(ruleSetVersions).values({ rule_set_id: id, version: 1, rules: input.rules, created_by: owner.id });
    const created = must(await readRuleSet(tx, owner, id), 'the rule set just written');
    await step?.(tx, created);
    return created;
  });
}

/**
 * The set locked for a change by `user`, or why they may not change it. The row lock makes
 * concurrent edits of one set take turns (each gets its own version number), and a superuser
 * making the set the team default waits for an edit begun before (and the other way round).
 */
async function lockForChange(tx: Tx, user: UserRow, id: number): Promise<{ is_team_default: boolean } | Refusal> {
  const [set] = await tx
    .select({ is_team_default: ruleSets.is_team_default })
    .from(ruleSets)
    .where(and(eq(ruleSets.id, id), editableBy(user)))
    .for('update');
  if (!set) return 'not_found';
  // Its owner chose its rules for themself; a superuser made them everyone's, so only a superuser changes them.
  if (set.is_team_default && !user.is_superuser) return 'team_default';
  return set;
}

/** Adds the next version (older ones stay as they were), or says why the user may not. */
export async function updateRuleSet(
  db: Db,
  user: UserRow,
  id: number,
  input: RuleSetInput,
  step?: TxStep<RuleSetView>,
): Promise<RuleSetView | Refusal> {
  return db.transaction(async (tx) => {
    const locked = await lockForChange(tx, user, id);
    if (typeof locked === 'string') return locked;
    const [latest] = await tx
      .select({ n: sql<number>`max(${ruleSetVersions.version})`.mapWith(Number) })
      .from(ruleSetVersions)
      .where(eq(ruleSetVersions.rule_set_id, id));
    const version = (latest?.n ?? 0) + 1;
    await tx.insert(ruleSetVersions).values({ rule_set_id: id, version, rules: input.rules, created_by: user.id });
    await tx.update(ruleSets).set({ name: input.name, updated_at: sql`now()` }).where(eq(ruleSets.id, id));
    const updated = must(await readRuleSet(tx, user, id), 'the rule set just written');
    await step?.(tx, updated);
    return updated;
  });
}

/** What a delete did: the set, and whether it was the team default (there is none after it). */
export interface DeletedRuleSet {
  id: number;
  name: string;
  was_team_default: boolean;
}

/** Marks the set deleted (its versions stay for the jobs judged with them), or says why the user may not. */
export async function deleteRuleSet(db: Db, user: UserRow, id: number, step?: TxStep<DeletedRuleSet>): Promise<DeletedRuleSet | Refusal> {
  return db.transaction(async (tx) => {
    const locked = await lockForChange(tx, user, id);
    if (typeof locked === 'string') return locked;
    const [row] = await tx
      .update(ruleSets)
      .set({ deleted_at: sql`now()`, is_team_default: false, updated_at: sql`now()` })
      .where(eq(ruleSets.id, id))
      .returning({ id: ruleSets.id, name: ruleSets.name });
    const deleted = { ...must(row, 'the row just locked'), was_team_default: locked.is_team_default };
    await step?.(tx, deleted);
    return deleted;
  });
}

/** A team default change: the set as it now is, and the one that stopped being the default for it (if any). */
export interface TeamDefaultChange {
  set: RuleSetView;
  replaced: { id: number; name: string } | undefined;
}

/**
 * Makes the set the team default (or stops it being one) in one transaction. A transaction-scoped
 * advisory lock makes two superusers choosing at once take turns, so the one-default index never
 * sees a race (which would be a unique violation, i.e. a 500).
 */
export async function setTeamDefault(
  db: Db,
  superuser: UserRow,
  id: number,
  isDefault: boolean,
  step?: TxStep<TeamDefaultChange>,
): Promise<RuleSetView | undefined> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('rule_sets.team_default'))`);
    const [set] = await tx
      .select({ id: ruleSets.id })
      .from(ruleSets)
      .where(and(eq(ruleSets.id, id), live));
    if (!set) return undefined;
    const [replaced] = isDefault
      ? await tx
          .update(ruleSets)
          .set({ is_team_default: false })
          .where(and(eq(ruleSets.is_team_default, true), sql`${ruleSets.id} <> ${id}`))
          .returning({ id: ruleSets.id, name: ruleSets.name })
      : [];
    await tx.update(ruleSets).set({ is_team_default: isDefault }).where(eq(ruleSets.id, id));
    const changed = must(await readRuleSet(tx, superuser, id), 'the rule set just changed');
    await step?.(tx, { set: changed, replaced });
    return changed;
  });
}
