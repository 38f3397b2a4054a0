// The API routes anyone may call without a token. Every other route under the API prefix is
// guarded (auth/guard.ts); test/guarded-routes.int.test.ts walks all registered routes to prove it.
// Outside the API prefix there is only public matter: the API docs and the built frontend.
export const API_PREFIX = '/api/v1';

export const PUBLIC_API_ROUTES: ReadonlySet<string> = new Set([
  `POST ${API_PREFIX}/login/access-token`,
  `POST ${API_PREFIX}/password-recovery/:email`,
  `POST ${API_PREFIX}/reset-password/`,
  `POST ${API_PREFIX}/users/signup`,
  `GET ${API_PREFIX}/utils/health-check/`,
  `GET ${API_PREFIX}/utils/app-info/`,
  `GET ${API_PREFIX}/openapi.json`,
  `GET ${API_PREFIX}/health/live`,
  `GET ${API_PREFIX}/health/ready`,
  // The digest's one-click link and its RFC 8058 POST: signed per watch (watches/email-stop.ts).
  `GET ${API_PREFIX}/watches/email-stop`,
  `POST ${API_PREFIX}/watches/email-stop`,
  // Not open: it takes METRICS_TOKEN instead of a user's token (metrics/access.ts).
  `GET ${API_PREFIX}/metrics`,
]);

/** Swagger UI. The only other routes outside the API are the built frontend's files (the SPA). */
export const DOCS_PREFIX = '/docs';
