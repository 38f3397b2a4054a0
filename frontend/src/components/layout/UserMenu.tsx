// Header menu: My profile (settings) and Log out (docs/requirements.md, The signed-in layout).
import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { UserPublic } from '../../client/types.gen';
import { useLogout } from '../../hooks/useLogout';

export function UserMenu({ user }: { user: UserPublic }) {
  const logout = useLogout();
  const initial = (user.full_name || user.email).charAt(0).toUpperCase();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="User menu" data-testid="user-menu">
          <Avatar radius="xl" color="gray">
            {initial}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/settings" leftSection={<IconUser size={14} />}>
          My profile
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={14} />} onClick={logout}>
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
