// Sidebar content: navigation links, then who is logged in.
import { Box, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import {
  IconBox,
  IconBarcode,
  IconHeartbeat,
  IconHistory,
  IconHome,
  IconListCheck,
  IconListDetails,
  IconReceiptTax,
  IconSettings,
  IconShieldLock,
  IconStack2,
  type Icon,
} from '@tabler/icons-react';
import { Link, useRouterState } from '@tanstack/react-router';
import type { UserPublic } from '../../client/types.gen';
import { MARKETPLACE_ICON } from './marketplace-icons';
import { type NavEntry, visibleEntries } from './nav';

const ICONS: Record<string, Icon> = {
  '/': IconHome,
  '/scan': IconBarcode,
  '/jobs': IconListCheck,
  '/rules': IconListDetails,
  // Each marketplace's page: the icon its registry entry names.
  ...Object.fromEntries(MARKETPLACE_LIST.flatMap((m) => (m.icon ? [[`/${m.slug}`, MARKETPLACE_ICON[m.icon]]] : []))),
  '/items': IconBox,
  '/fees': IconReceiptTax,
  '/settings': IconSettings,
  '/admin': IconShieldLock,
  '/admin/audit': IconHistory,
  '/admin/status': IconHeartbeat,
};

function Entry({
  entry,
  pathname,
  onNavigate,
  nested = false,
}: {
  entry: NavEntry;
  pathname: string;
  onNavigate?: () => void;
  nested?: boolean;
}) {
  const Icon = ICONS[entry.to] ?? IconStack2;
  return (
    <>
      <NavLink
        component={Link}
        to={entry.to}
        label={entry.label}
        leftSection={<Icon size={18} stroke={1.5} />}
        active={pathname === entry.to}
        onClick={onNavigate}
        pl={nested ? 'xl' : undefined}
      />
      {entry.children?.map((child) => (
        <Entry key={child.to} entry={child} pathname={pathname} onNavigate={onNavigate} nested />
      ))}
    </>
  );
}

export function Sidebar({ user, onNavigate }: { user: UserPublic; onNavigate?: () => void }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <Stack h="100%" gap={0} justify="space-between">
      <ScrollArea style={{ flex: 1 }}>
        <Box component="nav" aria-label="Main">
          {visibleEntries(user).map((entry) => (
            <Entry key={entry.to} entry={entry} pathname={pathname} onNavigate={onNavigate} />
          ))}
        </Box>
      </ScrollArea>
      <Box p="sm">
        <Text size="xs" c="dimmed">
          Logged in as
        </Text>
        <Text size="sm" truncate="end" data-testid="logged-in-as">
          {user.email}
        </Text>
      </Box>
    </Stack>
  );
}
