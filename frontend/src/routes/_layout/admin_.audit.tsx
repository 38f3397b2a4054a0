import { AUDIT_FIELDS } from '@app/domain/audit';
import { createFileRoute } from '@tanstack/react-router';
import { AuditPage } from '../../components/audit/AuditPage';
import { superusersOnly } from '../../lib/superusers-only';
import { validateTableSearch } from '../../lib/table-search';

export const Route = createFileRoute('/_layout/admin_/audit')({
  validateSearch: validateTableSearch(AUDIT_FIELDS),
  beforeLoad: superusersOnly,
  component: () => <AuditPage search={Route.useSearch()} />,
});
