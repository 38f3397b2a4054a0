// What a "decisions only" account (a scout who sees verdicts, never figures; ScoutIQ's hidden mode)
// may call: its own account, signing out, the live stream and the scan page's routes. Every other
// guarded route answers 403 for it (auth/guard.ts), so a route added later shows no figure to it
// unless it is listed here. A superuser is never held to it (they manage the users who are).
import { SCAN_MESSAGES } from '@app/domain/scan';
import { API_PREFIX } from './public-routes.ts';

export const DECISIONS_ONLY_ROUTES: ReadonlySet<string> = new Set([
  `GET ${API_PREFIX}/users/me`,
  `PATCH ${API_PREFIX}/users/me`,
  `PATCH ${API_PREFIX}/users/me/password`,
  `DELETE ${API_PREFIX}/users/me`,
  `POST ${API_PREFIX}/login/test-token`,
  `POST ${API_PREFIX}/login/sign-out`,
  `POST ${API_PREFIX}/login/sign-out-everywhere`,
  // Which jobs changed, no figures: the scan page hears its verdicts turn final through it.
  `GET ${API_PREFIX}/jobs/events`,
]);

/** Every route of the scan page. */
export const DECISIONS_ONLY_PREFIX = `${API_PREFIX}/scan/`;

export const DECISIONS_ONLY_REFUSAL = SCAN_MESSAGES.decisionsOnly;

/** Whether a "decisions only" account may call the route (a key from routeKey). */
export const openToDecisionsOnly = (key: string, url: string) => DECISIONS_ONLY_ROUTES.has(key) || url.startsWith(DECISIONS_ONLY_PREFIX);
