// Row menu of the users table: edit dialog and delete confirmation for one user.
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteUser } from '../../client/sdk.gen';
import type { UserPublic } from '../../client/types.gen';
import { TOAST } from '../../lib/messages';
import { showError, showSuccess } from '../../lib/notify';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { RowActions } from '../common/RowActions';
import { EditUser } from './EditUser';

export function UserActions({ user, disabled }: { user: UserPublic; disabled: boolean }) {
  const [editOpened, edit] = useDisclosure(false);
  const [deleteOpened, del] = useDisclosure(false);
  const queryClient = useQueryClient();

  const remove = useMutation({
    mutationFn: async () => (await deleteUser({ path: { user_id: user.id } })).data,
    meta: { toastOnError: false },
    onSuccess: () => {
      showSuccess(TOAST.deleted('user'));
      del.close();
    },
    onError: () => showError(TOAST.deleteFailure('user'), TOAST.deleteFailureTitle),
    // The user's items went with them.
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['users'] }), queryClient.invalidateQueries({ queryKey: ['items'] })]),
  });

  return (
    <>
      <RowActions noun="User" onEdit={edit.open} onDelete={del.open} disabled={disabled} />
      <EditUser user={user} opened={editOpened} onClose={edit.close} />
      <ConfirmDialog
        opened={deleteOpened}
        onClose={del.close}
        title="Delete User"
        message="All items associated with this user will also be permanently deleted. Are you sure? You will not be able to undo this action."
        onConfirm={() => remove.mutate()}
        loading={remove.isPending}
      />
    </>
  );
}
