import { FORM_MODE } from '../../lib/form-mode';
import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { createItem } from '../../client/sdk.gen';
import { TOAST, VALIDATION } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { FormModal } from '../common/FormModal';
import { ItemFields, type ItemFormValues, toItemBody } from './ItemForm';
import { readItemsQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';

export function AddItem() {
  const [opened, modal] = useDisclosure(false);
  const queryClient = useQueryClient();
  const form = useForm<ItemFormValues>({ mode: FORM_MODE, defaultValues: { title: '', description: '' } });

  const close = () => {
    modal.close();
    form.reset();
  };

  const mutation = useMutation({
    mutationFn: async (values: ItemFormValues) => (await createItem({ body: toItemBody(values) })).data,
    onSuccess: () => {
      showSuccess(TOAST.itemCreated);
      close();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: everyCall(readItemsQueryKey) }),
  });

  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={modal.open}>
        Add Item
      </Button>
      <FormModal
        opened={opened}
        onClose={close}
        title="Add Item"
        onSubmit={form.handleSubmit((v) => mutation.mutate(v))}
        loading={mutation.isPending}
      >
        <ItemFields form={form} titleRequired={VALIDATION.titleRequiredCreate} />
      </FormModal>
    </>
  );
}
