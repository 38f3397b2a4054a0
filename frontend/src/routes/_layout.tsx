import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../components/layout/AppLayout';
import { decisionsOnlyToScan } from '../lib/decisions-only';
import { requireLogin } from '../lib/guards';

// Pathless layout around every protected page.
export const Route = createFileRoute('/_layout')({
  beforeLoad: async (ctx) => {
    requireLogin();
    await decisionsOnlyToScan(ctx);
  },
  component: AppLayout,
});
