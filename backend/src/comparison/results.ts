// What a job decided, at a glance (the top of its page): per decision its books, what they cost the
// dealer and their estimated profit, and how many books each marketplace is the best source for.
// Money is summed in integer cents from per-row amounts already rounded to cents, so it is exact.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { comparisonRows, jobDecisions } from '../db/schema.ts';
import type { FeeSchedules } from '../fees/repository.ts';
import type { JobRow } from '../jobs/repository.ts';
import { comparisonTable, profitAt } from './query.ts';

interface Group {
  decision: string | null;
  best_source: string | null;
  books: number;
  priced: number;
  profit_cents: string | number | null;
}

/**
 * The job's rows grouped by (decision, best source), with their profit in cents. A stored comparison
 * answers from comparison_rows and job_decisions alone (no marketplace joins); an older job computes it.
 */
function groupedRows(job: JobRow, fees: FeeSchedules) {
  const rows = job.comparison_stored
    ? sql`SELECT ${job.judged_at ? sql`jd.outcome::text` : sql`NULL::text`} AS decision, cr.best_source,
          ${profitAt(job, sql`cr.best_price`, sql`cr.best_source`, fees)} AS profit
        FROM ${comparisonRows} cr
        ${job.judged_at ? sql`LEFT JOIN ${jobDecisions} jd ON jd.job_id = cr.job_id AND jd.row_id = cr.row_id` : sql``}
        WHERE cr.job_id = ${job.id}`
    : sql`SELECT decision, best_source, estimated_profit AS profit FROM ${comparisonTable(job, { fees })}`;
  return sql`SELECT decision, best_source, count(*)::int AS books, count(profit)::int AS priced,
      sum(round(profit::numeric * 100))::bigint AS profit_cents
    FROM (${rows}) r GROUP BY decision, best_source`;
}

const dollars = (cents: number) => cents / 100;

export async function jobResults(db: Db, job: JobRow, fees: FeeSchedules) {
  const { rows } = await db.execute<Group & Record<string, unknown>>(groupedRows(job, fees));
  const costCents = job.cost_per_book === null ? null : Math.round(job.cost_per_book * 100);
  const decisions = new Map<string, { books: number; priced: number; profit: number }>();
  const sources = new Map<string | null, number>();
  let books = 0;
  let priced = 0;
  let profit = 0;
  for (const g of rows) {
    const cents = g.profit_cents === null ? 0 : Number(g.profit_cents);
    books += g.books;
    priced += g.priced;
    profit += cents;
    sources.set(g.best_source, (sources.get(g.best_source) ?? 0) + g.books);
    if (g.decision === null) continue;
    const d = decisions.get(g.decision) ?? { books: 0, priced: 0, profit: 0 };
    decisions.set(g.decision, { books: d.books + g.books, priced: d.priced + g.priced, profit: d.profit + cents });
  }
  const cost = (n: number) => (costCents === null ? null : dollars(costCents * n));
  return {
    job_id: job.id,
    books,
    cost_per_book: job.cost_per_book,
    all: { books, cost: cost(books), estimated_profit: dollars(profit), priced },
    decisions: [...decisions].map(([outcome, d]) => ({
      outcome,
      books: d.books,
      cost: cost(d.books),
      estimated_profit: dollars(d.profit),
      priced: d.priced,
    })),
    // Most books first; books with no price to compare (best source empty) last.
    best_sources: [...sources]
      .map(([source, n]) => ({ source, books: n }))
      .sort((a, b) => (a.source === null ? 1 : b.source === null ? -1 : b.books - a.books || a.source.localeCompare(b.source))),
  };
}
