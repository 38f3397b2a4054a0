// Sidebar entries (spec §2). Marketplace children come from the shared domain table.
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';

export interface NavEntry {
  label: string;
  to: string;
  children?: NavEntry[];
  superuserOnly?: boolean;
}

export const NAV_ENTRIES: readonly NavEntry[] = [
  { label: 'Dashboard', to: '/', children: MARKETPLACE_LIST.map((m) => ({ label: m.label, to: `/${m.slug}` })) },
  { label: 'Jobs', to: '/jobs' },
  { label: 'Buy rules', to: '/rules' },
  { label: 'Items', to: '/items' },
  { label: 'Fees', to: '/fees' },
  { label: 'User Settings', to: '/settings' },
  { label: 'Admin', to: '/admin', superuserOnly: true },
  { label: 'Audit trail', to: '/admin/audit', superuserOnly: true },
  { label: 'System status', to: '/admin/status', superuserOnly: true },
];

export function visibleEntries(isSuperuser: boolean): NavEntry[] {
  return NAV_ENTRIES.filter((e) => !e.superuserOnly || isSuperuser);
}
