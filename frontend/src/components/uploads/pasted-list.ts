// The Create Job dialog's reading of a pasted or scanned list: the domain's reader (the API reads
// the list with the same code, so the live count matches the report), kept for the last text so
// the count and the field's validation read a long list once per change.
import { type PastedList, readPastedList } from '@app/domain/isbn-list';

let last: { text: string; list: PastedList } | null = null;

export function readPastedListOnce(text: string): PastedList {
  if (last?.text !== text) last = { text, list: readPastedList(text) };
  return last.list;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "12 ISBNs ready · 1 duplicate merged · 2 not recognised" (the parts that are not zero, ISBNs always). */
export function pastedListSummary(list: PastedList): string {
  const parts = [`${plural(list.isbns.length, 'ISBN', 'ISBNs')} ready`];
  if (list.duplicates > 0) parts.push(`${plural(list.duplicates, 'duplicate', 'duplicates')} merged`);
  if (list.rejections.length > 0) parts.push(`${list.rejections.length} not recognised`);
  return parts.join(' · ');
}
