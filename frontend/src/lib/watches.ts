// A watch as the app edits and shows it: the form's draft and its errors (the domain's checks, the
// rule editor's own, keyed by the input paths a 422's loc names too), and a saved watch in words.
import { describeConditions, validateWatch, WATCH_FIELDS } from '@app/domain/watches';
import type { WatchPublic } from '../client/types.gen';
import { newFilter, type Filter } from './filters';
import { formatDateTime } from './format';
import { pathKey, type ErrorMap } from '../components/rules/rule-sets';

export interface WatchDraft {
  name: string;
  conditions: Filter[];
  /** In the hourly email digest as well as the app. */
  email: boolean;
}

/** A new watch: no name, one condition to fill in, emailed. */
export const emptyWatchDraft = (): WatchDraft => ({ name: '', conditions: [newFilter(WATCH_FIELDS)], email: true });

export const watchToDraft = (w: WatchPublic): WatchDraft => ({
  name: w.name ?? '',
  conditions: w.conditions.map((c) => ({ ...c })),
  email: w.email,
});

/** What the API is sent: a blank name is no name. */
export const watchBody = (d: WatchDraft) => ({
  name: d.name.trim() === '' ? null : d.name.trim(),
  conditions: d.conditions,
  email: d.email,
});

/** The domain's verdict on a draft, by input path ("name", "conditions", "conditions.0.value"). */
export function watchDraftErrors(d: WatchDraft): ErrorMap {
  const errors: ErrorMap = {};
  for (const issue of validateWatch({ name: d.name, conditions: d.conditions })) errors[pathKey(issue.path)] ??= issue.message;
  return errors;
}

/** What the watch waits for, in words: "Best Price greater or equal 20 and Sales Rank less or equal 300000". */
export const watchConditionsText = (w: Pick<WatchPublic, 'conditions'>) => describeConditions(w.conditions);

/**
 * When it fired, and whether it fires again, in words. Armed: the next answer that meets the
 * conditions fires it. Not armed: it fired (a job watch: for some book) and waits for the conditions
 * to stop holding before it can fire again.
 */
export function watchStateText(w: Pick<WatchPublic, 'armed' | 'last_fired_at'>): string {
  const last = w.last_fired_at ? `Last fired ${formatDateTime(w.last_fired_at)}` : 'Never fired';
  return w.armed ? `${last}. Fires on the next answer that meets it.` : `${last}. Fires again once the conditions have stopped holding.`;
}

/** The bell's badge: nothing at 0, "99+" past 99. */
export const unreadBadge = (n: number): string => (n <= 0 ? '' : n > 99 ? '99+' : String(n));

/** The bell's name for assistive tech, with the count it shows. */
export const bellLabel = (n: number): string => (n > 0 ? `Notifications: ${n} unread` : 'Notifications');
