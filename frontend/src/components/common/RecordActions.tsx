// A table row's Edit and Delete for one record: the "…" menu, the record's edit dialog, and the delete
// confirmation with its request and toasts. The users and items tables differ only in the props.
import { useDisclosure } from '@mantine/hooks';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { TOAST, type RecordKind } from '../../lib/messages';
import { showError, showSuccess } from '../../lib/notify';
import { ConfirmDialog } from './ConfirmDialog';
import { RowActions } from './RowActions';

export interface RecordActionsProps {
  what: RecordKind;
  /** The record's edit dialog, opened from the menu. */
  editDialog: (opened: boolean, onClose: () => void) => ReactNode;
  /** Deletes the record on the server. */
  deleteRecord: () => Promise<unknown>;
  /** What the confirmation says before deleting. */
  confirmMessage: string;
  /** The lists to refetch once the delete has settled. */
  refetch: QueryKey[];
  disabled?: boolean;
  /** Why the record cannot be deleted (see RowActions). */
  deleteRefused?: string;
  /** More menu entries for this record (RowActions' extraItems). */
  extraItems?: ReactNode;
}

export function RecordActions({
  what,
  editDialog,
  deleteRecord,
  confirmMessage,
  refetch,
  disabled,
  deleteRefused,
  extraItems,
}: RecordActionsProps) {
  const [editOpened, edit] = useDisclosure(false);
  const [deleteOpened, del] = useDisclosure(false);
  const queryClient = useQueryClient();
  // Title case: 'Edit Item', 'Delete Rule Set'.
  const noun = what.replace(/\b\w/g, (c) => c.toUpperCase());

  const remove = useMutation({
    mutationFn: deleteRecord,
    meta: { toastOnError: false },
    onSuccess: () => {
      showSuccess(TOAST.deleted(what));
      del.close();
    },
    onError: () => showError(TOAST.deleteFailure(what), TOAST.deleteFailureTitle),
    onSettled: () => Promise.all(refetch.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });

  return (
    <>
      <RowActions
        noun={noun}
        onEdit={edit.open}
        onDelete={del.open}
        disabled={disabled}
        deleteRefused={deleteRefused}
        extraItems={extraItems}
      />
      {editDialog(editOpened, edit.close)}
      <ConfirmDialog
        opened={deleteOpened}
        onClose={del.close}
        title={`Delete ${noun}`}
        message={confirmMessage}
        onConfirm={() => remove.mutate()}
        loading={remove.isPending}
      />
    </>
  );
}
