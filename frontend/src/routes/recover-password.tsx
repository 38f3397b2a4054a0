import { createFileRoute } from '@tanstack/react-router';
import { RecoverPasswordPage } from '../components/auth/RecoverPasswordPage';
import { redirectIfLoggedIn } from '../lib/guards';

export const Route = createFileRoute('/recover-password')({
  beforeLoad: redirectIfLoggedIn,
  component: RecoverPasswordPage,
});
