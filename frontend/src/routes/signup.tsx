import { createFileRoute } from '@tanstack/react-router';
import { SignUpPage } from '../components/auth/SignUpPage';
import { redirectIfLoggedIn } from '../lib/guards';

export const Route = createFileRoute('/signup')({
  beforeLoad: redirectIfLoggedIn,
  component: SignUpPage,
});
