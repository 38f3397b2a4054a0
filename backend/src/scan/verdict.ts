// A scan's verdict: the session's rule set judged on the job's comparison row for the ISBN (the same
// derived table, rules SQL and fee formula the job page judges with, so a scan and the job page never
// disagree), with the figures behind it. Provisional while a marketplace the session asks has not
// answered the ISBN yet; final once all have.
import { COMPARED_MARKETPLACES, statusField } from '@app/domain/comparison';
import { NO_RULE, type RuleColor } from '@app/domain/rules';
import type { VerdictState } from '@app/domain/scan';
import { sql } from 'drizzle-orm';
import { comparisonTable } from '../comparison/query.ts';
import type { Db, Tx } from '../db/client.ts';
import { executeNamed } from '../db/named-statement.ts';
import { comparisonRows, jobDecisions } from '../db/schema.ts';
import type { FeeSchedules } from '../fees/repository.ts';
import type { JobRow } from '../jobs/repository.ts';
import { compileRules, decisionCases } from '../decisions/rules-sql.ts';
import type { RuleSetVersion } from '../rules/repository.ts';
import { askedBy } from './intake.ts';

export interface Figures {
  title: string | null;
  best_price: number | null;
  best_source: string | null;
  amazon_sales_rank: number | null;
  estimated_profit: number | null;
  cost_per_book: number | null;
}

export interface Verdict {
  isbn: string;
  /** The comparison row's id (the base lookup's): where the job page's decision is kept. */
  row_id: number;
  outcome: { name: string; color: RuleColor; rule_index: number | null } | null;
  state: VerdictState;
  /** Marketplaces the session asks that have not answered the ISBN yet (their labels' ids). */
  waiting_for: string[];
  figures: Figures;
  /** What the job's stored comparison row keeps (comparison/stored.ts). */
  stored: { best_price: number | null; best_source: string | null; spread: number | null };
}

/** The statuses the comparison carries, one per marketplace it asks. */
const STATUS_COLUMNS = COMPARED_MARKETPLACES;

/**
 * The verdicts of these ISBNs of the job, judged with `version` (none: no outcome, the figures still).
 * One statement: the comparison rows of those ISBNs, their first matching rule and their figures.
 */
export async function readVerdicts(
  db: Db | Tx,
  job: JobRow,
  isbns: readonly string[],
  fees: FeeSchedules,
  version: Pick<RuleSetVersion, 'rules'> | undefined,
): Promise<Map<string, Verdict>> {
  const out = new Map<string, Verdict>();
  if (isbns.length === 0) return out;
  const rules = version ? compileRules(version.rules) : [];
  const { ruleIndex } = decisionCases(rules);
  const asked = new Set(askedBy(job).map((m) => m.id));
  const statuses = STATUS_COLUMNS.filter((id) => asked.has(id));
  const comparison = comparisonTable(job, {
    fees,
    decisions: false,
    only: ({ isbn }) => sql`${isbn} = ANY(${sql.param([...isbns])}::text[])`,
  });
  // Named: every scan runs the same text (planned once per connection on PostgreSQL; its planning was most of its time).
  const rows = await executeNamed<Record<string, unknown>>(
    db as Db,
    sql`
    SELECT id, isbn, title, best_price, best_source, spread, amazon_sales_rank, estimated_profit, ${ruleIndex} AS rule_index
      ${
        statuses.length
          ? sql`, ${sql.join(
              statuses.map((id) => sql`${sql.identifier(statusField(id))} AS ${sql.identifier(`status_${id}`)}`),
              sql`, `,
            )}`
          : sql``
      }
    FROM ${comparison}`,
  );
  for (const r of rows) {
    const index = r.rule_index === null || r.rule_index === undefined ? null : Number(r.rule_index);
    const rule = index === null ? undefined : rules[index];
    const waiting = statuses.filter((id) => {
      const s = r[`status_${id}`];
      return s === 'queued' || s === 'pending';
    });
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    out.set(String(r.isbn), {
      isbn: String(r.isbn),
      row_id: Number(r.id),
      outcome: version
        ? rule
          ? { name: rule.outcome, color: rule.color, rule_index: index }
          : { name: NO_RULE, color: 'gray', rule_index: null }
        : null,
      state: waiting.length ? 'provisional' : 'final',
      waiting_for: waiting,
      figures: {
        title: (r.title as string | null) ?? null,
        best_price: num(r.best_price),
        best_source: (r.best_source as string | null) ?? null,
        amazon_sales_rank: num(r.amazon_sales_rank),
        estimated_profit: num(r.estimated_profit),
        cost_per_book: job.cost_per_book,
      },
      stored: { best_price: num(r.best_price), best_source: (r.best_source as string | null) ?? null, spread: num(r.spread) },
    });
  }
  return out;
}

/**
 * Keeps the job page's decision of a verdict's row (a judged job's comparison joins its decisions:
 * a row without one would drop out of it until the next judge).
 */
export async function keepDecision(tx: Tx, job: JobRow, v: Verdict): Promise<void> {
  if (!job.judged_at || !v.outcome) return;
  await tx.execute(sql`
    INSERT INTO ${jobDecisions} AS d (job_id, row_id, rule_index, outcome)
    VALUES (${job.id}, ${v.row_id}, ${v.outcome.rule_index}, ${v.outcome.name})
    ON CONFLICT (job_id, row_id) DO UPDATE SET rule_index = excluded.rule_index, outcome = excluded.outcome`);
}

/**
 * Writes a new ISBN's stored comparison row from its verdict, in the transaction that added its
 * lookups: the verdict read the same derived table the stored row is computed from
 * (comparison/stored.ts), and the rows it read are this transaction's own, so nothing can differ.
 */
export async function keepStoredRow(tx: Tx, job: JobRow, v: Verdict): Promise<void> {
  await tx.execute(sql`
    UPDATE ${comparisonRows} SET best_price = ${v.stored.best_price}, best_source = ${v.stored.best_source}, spread = ${v.stored.spread}
    WHERE job_id = ${job.id} AND row_id = ${v.row_id}`);
}
