import { FORM_MODE } from '../../lib/form-mode';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { updateItem } from '../../client/sdk.gen';
import type { ItemPublic } from '../../client/types.gen';
import { TOAST, VALIDATION } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { FormModal } from '../common/FormModal';
import { ItemFields, type ItemFormValues, toItemBody } from './ItemForm';
import { readItemsQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';

export function EditItem({ item, opened, onClose }: { item: ItemPublic; opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<ItemFormValues>({ mode: FORM_MODE, values: { title: item.title, description: item.description ?? '' } });

  const close = () => {
    onClose();
    form.reset();
  };

  const mutation = useMutation({
    mutationFn: async (values: ItemFormValues) => (await updateItem({ path: { id: item.id }, body: toItemBody(values) })).data,
    onSuccess: () => {
      showSuccess(TOAST.itemUpdated);
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: everyCall(readItemsQueryKey) }),
  });

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Edit Item"
      onSubmit={form.handleSubmit((v) => mutation.mutate(v))}
      submitDisabled={!form.formState.isDirty}
      loading={mutation.isPending}
    >
      <ItemFields form={form} titleRequired={VALIDATION.titleRequiredEdit} />
    </FormModal>
  );
}
