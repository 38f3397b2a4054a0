// Shell of every protected page: header with the book search, the notifications bell and the user
// menu, a 320 px sidebar on desktop and a 250 px drawer on mobile (AppShell forces a full-width
// navbar on mobile, hence the Drawer), and a spinner until the current user is known.
import { AppShell, Burger, Button, Center, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Navigate, Outlet, useRouterState } from '@tanstack/react-router';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { useLiveJobEvents } from '../../hooks/useLiveJobEvents';
import { useLogout } from '../../hooks/useLogout';
import { BookSearch } from './BookSearch';
import { isDecisionsOnly, openToDecisionsOnly } from './nav';
import { NotificationBell } from './NotificationBell';
import { Sidebar } from './Sidebar';
import { UserMenu } from './UserMenu';

const SIDEBAR_WIDTH = 320;
const DRAWER_WIDTH = 250;

export function AppLayout() {
  const [drawerOpened, drawer] = useDisclosure(false);
  const { data: user, isError, refetch } = useCurrentUser();
  const logout = useLogout();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  useLiveJobEvents();

  // A 403 already left for /login; anything else (server down after retries) gets a way out.
  if (!user && isError) {
    return (
      <Center h="100vh">
        <Stack align="center">
          <Text>Your account could not be loaded.</Text>
          <Group>
            <Button onClick={() => void refetch()}>Try again</Button>
            <Button variant="default" onClick={logout}>
              Log out
            </Button>
          </Group>
        </Stack>
      </Center>
    );
  }

  if (!user) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }

  // A "decisions only" account sees verdicts on the scan page and nothing with a figure (the API refuses the rest).
  const scout = isDecisionsOnly(user);
  if (scout && !openToDecisionsOnly(pathname)) return <Navigate to="/scan" replace />;

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: SIDEBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: true } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={drawerOpened} onClick={drawer.toggle} hiddenFrom="sm" size="sm" aria-label="Open navigation" />
            {/* On a phone the search box takes the title's room (the menu and the logo's page stay a tap away). */}
            <Text component={Link} to="/" fw={700} visibleFrom="sm" c="inherit" style={{ whiteSpace: 'nowrap' }}>
              Price Lookup Dashboard
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ flex: '1 1 auto', justifyContent: 'flex-end', minWidth: 0 }}>
            {!scout && <BookSearch />}
            {/* A scout's account has no book pages to watch from, nor the notifications page. */}
            {!scout && <NotificationBell />}
            <UserMenu user={user} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <Sidebar user={user} />
      </AppShell.Navbar>
      <Drawer opened={drawerOpened} onClose={drawer.close} size={DRAWER_WIDTH} hiddenFrom="sm" title="Menu">
        <Sidebar user={user} onNavigate={drawer.close} />
      </Drawer>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
