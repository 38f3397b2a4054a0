import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../components/auth/ResetPasswordPage';
import { redirectIfLoggedIn } from '../lib/guards';

export const Route = createFileRoute('/reset-password')({
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' && search.token ? { token: search.token } : {},
  beforeLoad: redirectIfLoggedIn,
  component: () => <ResetPasswordPage token={Route.useSearch().token} />,
});
