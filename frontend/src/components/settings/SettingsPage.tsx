// The user's settings: profile, password, appearance and (not for superusers) deleting the account.
import { Tabs } from '@mantine/core';
import { PageTitle } from '../common/PageTitle';
import { Appearance } from './Appearance';
import { ChangePassword } from './ChangePassword';
import { DeleteAccount } from './DeleteAccount';
import { SignOutEverywhere } from './SignOutEverywhere';
import { UserInformation } from './UserInformation';
import { useCurrentUser } from '../../hooks/useCurrentUser';

export function SettingsPage() {
  const { data: user } = useCurrentUser();
  if (!user) return null; // the layout shows a spinner until the user is known
  return (
    <>
      <PageTitle>User Settings</PageTitle>
      <Tabs defaultValue="my-profile" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="my-profile">My profile</Tabs.Tab>
          <Tabs.Tab value="password">Password</Tabs.Tab>
          <Tabs.Tab value="appearance">Appearance</Tabs.Tab>
          {/* Superusers do not see Danger zone. */}
          {!user.is_superuser && <Tabs.Tab value="danger-zone">Danger zone</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="my-profile">
          <UserInformation user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="password">
          <ChangePassword />
          <SignOutEverywhere />
        </Tabs.Panel>
        <Tabs.Panel value="appearance">
          <Appearance />
        </Tabs.Panel>
        {!user.is_superuser && (
          <Tabs.Panel value="danger-zone">
            <DeleteAccount />
          </Tabs.Panel>
        )}
      </Tabs>
    </>
  );
}
