// "Danger zone" tab: a user deletes their own account (never shown to superusers).
import { Button, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { deleteUserMe } from '../../client/sdk.gen';
import { useLogout } from '../../hooks/useLogout';
import { TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { ConfirmDialog } from '../common/ConfirmDialog';

export function DeleteAccount() {
  const [opened, dialog] = useDisclosure(false);
  const logout = useLogout();

  const mutation = useMutation({
    mutationFn: async () => (await deleteUserMe()).data,
    onSuccess: () => {
      showSuccess(TOAST.accountDeleted);
      dialog.close();
      logout();
    },
  });

  return (
    <Stack gap="sm" align="flex-start">
      <Title order={4}>Delete Account</Title>
      <Text size="sm">Permanently delete your data and everything associated with your account.</Text>
      <Button color="red" onClick={dialog.open}>
        Delete
      </Button>
      <ConfirmDialog
        opened={opened}
        onClose={dialog.close}
        title="Confirmation Required"
        message='All your account data will be permanently deleted. If you are sure, please click "Confirm" to proceed. This action cannot be undone.'
        confirmLabel="Confirm"
        onConfirm={() => mutation.mutate()}
        loading={mutation.isPending}
      />
    </Stack>
  );
}
