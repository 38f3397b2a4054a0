// Row menu of the items table: edit dialog and delete confirmation for one item.
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteItem } from '../../client/sdk.gen';
import type { ItemPublic } from '../../client/types.gen';
import { TOAST } from '../../lib/messages';
import { showError, showSuccess } from '../../lib/notify';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { RowActions } from '../common/RowActions';
import { EditItem } from './EditItem';

export function ItemActions({ item }: { item: ItemPublic }) {
  const [editOpened, edit] = useDisclosure(false);
  const [deleteOpened, del] = useDisclosure(false);
  const queryClient = useQueryClient();

  const remove = useMutation({
    mutationFn: async () => (await deleteItem({ path: { id: item.id } })).data,
    meta: { toastOnError: false },
    onSuccess: () => {
      showSuccess(TOAST.deleted('item'));
      del.close();
    },
    onError: () => showError(TOAST.deleteFailure('item'), TOAST.deleteFailureTitle),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['items'] }),
  });

  return (
    <>
      <RowActions noun="Item" onEdit={edit.open} onDelete={del.open} />
      <EditItem item={item} opened={editOpened} onClose={edit.close} />
      <ConfirmDialog
        opened={deleteOpened}
        onClose={del.close}
        title="Delete Item"
        message="This item will be permanently deleted. Are you sure? You will not be able to undo this action."
        onConfirm={() => remove.mutate()}
        loading={remove.isPending}
      />
    </>
  );
}
