import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '../components/auth/LoginPage';
import { redirectIfLoggedIn } from '../lib/guards';

export const Route = createFileRoute('/login')({
  beforeLoad: redirectIfLoggedIn,
  component: LoginPage,
});
