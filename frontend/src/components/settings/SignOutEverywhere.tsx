// Password tab: end every session of this account (another computer, a lost phone), this one too.
import { Button, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { signOutEverywhere } from '../../client/sdk.gen';
import { useLogout } from '../../hooks/useLogout';
import { TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';

export function SignOutEverywhere() {
  const logout = useLogout();
  const mutation = useMutation({
    mutationFn: async () => (await signOutEverywhere()).data,
    onSuccess: () => {
      showSuccess(TOAST.signedOutEverywhere);
      logout();
    },
  });
  return (
    <Stack gap="sm" align="flex-start" maw={480} mt="xl">
      <Title order={4}>Sessions</Title>
      <Text size="sm">Signed in on a computer you no longer use? End every session of this account, this one included.</Text>
      <Button variant="default" onClick={() => mutation.mutate()} loading={mutation.isPending}>
        Sign out everywhere
      </Button>
    </Stack>
  );
}
