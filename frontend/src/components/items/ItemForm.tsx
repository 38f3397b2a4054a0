// Title + description fields, shared by the add and edit dialogs.
import { TextInput, Textarea } from '@mantine/core';
import type { UseFormReturn } from 'react-hook-form';

export interface ItemFormValues {
  title: string;
  description: string;
}

export function ItemFields({ form, titleRequired }: { form: UseFormReturn<ItemFormValues>; titleRequired: string }) {
  const { register, formState } = form;
  return (
    <>
      <TextInput
        label="Title"
        placeholder="Title"
        withAsterisk
        error={formState.errors.title?.message}
        {...register('title', { required: titleRequired })}
        data-autofocus
      />
      <Textarea label="Description" placeholder="Description" autosize minRows={2} {...register('description')} />
    </>
  );
}

/** An empty description is sent as null: the field is optional. */
export function toItemBody(values: ItemFormValues) {
  return { title: values.title, description: values.description.trim() === '' ? null : values.description };
}
