// Sidebar entries (docs/requirements.md, The signed-in layout). Marketplace children come from the shared
// domain table.
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';

export interface NavEntry {
  label: string;
  to: string;
  children?: NavEntry[];
  superuserOnly?: boolean;
  /** Kept for a "decisions only" account (a scout: verdicts, no figures). */
  decisionsOnly?: boolean;
}

export const NAV_ENTRIES: readonly NavEntry[] = [
  { label: 'Dashboard', to: '/', children: MARKETPLACE_LIST.map((m) => ({ label: m.label, to: `/${m.slug}` })) },
  { label: 'Scan', to: '/scan', decisionsOnly: true },
  { label: 'Jobs', to: '/jobs' },
  { label: 'Buy rules', to: '/rules' },
  { label: 'Items', to: '/items' },
  { label: 'Fees', to: '/fees' },
  { label: 'User Settings', to: '/settings', decisionsOnly: true },
  { label: 'Admin', to: '/admin', superuserOnly: true },
  { label: 'Audit trail', to: '/admin/audit', superuserOnly: true },
  { label: 'System status', to: '/admin/status', superuserOnly: true },
];

export interface NavUser {
  is_superuser: boolean;
  decisions_only?: boolean;
}

/** A "decisions only" account (never a superuser's) keeps the scan page and its settings; the API refuses it the rest. */
export const isDecisionsOnly = (user: NavUser) => !!user.decisions_only && !user.is_superuser;

export function visibleEntries(user: NavUser): NavEntry[] {
  if (isDecisionsOnly(user)) return NAV_ENTRIES.filter((e) => e.decisionsOnly);
  return NAV_ENTRIES.filter((e) => !e.superuserOnly || user.is_superuser);
}

/** Whether a "decisions only" account may open the page at `pathname`. */
export const openToDecisionsOnly = (pathname: string) => NAV_ENTRIES.some((e) => e.decisionsOnly && e.to === pathname);
