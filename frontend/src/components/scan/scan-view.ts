// What the scan page says about a verdict, as pure functions (tested without a browser).
import type { ScanPublic } from '../../client/types.gen';
import { formatMoney } from '../../lib/format';

/** Whether a session started today (local time): the page resumes it instead of starting another. */
export function isToday(iso: string, now = new Date()): boolean {
  const d = new Date(iso);
  return d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
}

const money = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatMoney(v, 'USD'));

/** The figures behind a verdict, label and value, in the order a dealer reads them. */
export function verdictFigures(scan: ScanPublic): { label: string; value: string }[] {
  const f = scan.verdict.figures;
  if (!f) return [];
  return [
    {
      label: 'Best price',
      value: f.best_price === null ? 'No price yet' : `${money(f.best_price)}${f.best_source ? ` on ${f.best_source}` : ''}`,
    },
    { label: 'Amazon sales rank', value: f.amazon_sales_rank === null ? '—' : Math.round(f.amazon_sales_rank).toLocaleString('en-US') },
    { label: 'Est. profit after fees', value: money(f.estimated_profit) },
    { label: 'Cost per book', value: money(f.cost_per_book) },
  ];
}

/** "Final", or what the verdict still waits for ("Provisional: waiting for 3 marketplaces"). */
export function verdictState(scan: ScanPublic): string {
  if (scan.verdict.state === 'final') return 'Final';
  const n = scan.verdict.waiting_for.length;
  return n ? `Provisional: waiting for ${n} marketplace${n === 1 ? '' : 's'}` : 'Provisional';
}

/** Copies in this session and a purchase in another one, as the dealer should hear them. */
export function duplicateNotes(scan: ScanPublic): string[] {
  const notes: string[] = [];
  if (scan.copies > 1) notes.push(`Already scanned in this session: ${scan.copies} copies`);
  const b = scan.bought_elsewhere;
  if (b)
    notes.push(`Bought by ${b.by} on ${new Date(b.at).toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} (${b.session})`);
  return notes;
}
