// Route guards (docs/requirements.md, Session): public pages bounce a logged-in user home, protected ones
// bounce a logged-out user to /login.
import { redirect } from '@tanstack/react-router';
import { isLoggedIn } from './session';

export function redirectIfLoggedIn(): void {
  if (isLoggedIn()) throw redirect({ to: '/', search: { page: 1 } });
}

export function requireLogin(): void {
  if (!isLoggedIn()) throw redirect({ to: '/login' });
}
