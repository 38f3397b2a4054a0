import { createFileRoute } from '@tanstack/react-router';
import { SystemStatusPage } from '../../components/admin/SystemStatusPage';
import { superusersOnly } from '../../lib/superusers-only';

export const Route = createFileRoute('/_layout/admin_/status')({
  beforeLoad: superusersOnly,
  component: SystemStatusPage,
});
