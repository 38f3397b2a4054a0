import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../components/layout/AppLayout';
import { requireLogin } from '../lib/guards';

// Pathless layout around every protected page.
export const Route = createFileRoute('/_layout')({
  beforeLoad: requireLogin,
  component: AppLayout,
});
