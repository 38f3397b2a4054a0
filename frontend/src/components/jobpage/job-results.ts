// Pure figures of a job's results summary: a count's share of the job's books, and how a folded
// progress section names the marketplaces that are done.

/** `count` of `total` as a whole percent; a sliver never reads as 0 % nor an almost-all as 100 %. */
export function shareText(count: number, total: number): string {
  if (total <= 0) return '—';
  const percent = (count / total) * 100;
  if (count > 0 && percent < 1) return '<1%';
  if (count < total && percent > 99) return '>99%';
  return `${Math.round(percent)}%`;
}

/** The one line progress folds into once every marketplace is done. */
export function allDoneText(labels: readonly string[]): string {
  if (labels.length === 1) return `${labels[0]} done`;
  if (labels.length === 2) return `Both marketplaces done`;
  return `All ${labels.length} marketplaces done`;
}
