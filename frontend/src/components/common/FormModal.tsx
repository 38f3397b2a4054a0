// A modal holding one form with Save / Cancel: the shape of every add and edit dialog.
// FormBody is the form without the modal, for dialogs that show something else after submitting.
import { Modal, Stack } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { DialogButtons } from './DialogButtons';

export interface FormBodyProps {
  onCancel: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel?: string;
  submitDisabled?: boolean;
  loading?: boolean;
  children: ReactNode;
}

export function FormBody({ onCancel, onSubmit, submitLabel = 'Save', submitDisabled = false, loading = false, children }: FormBodyProps) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">{children}</Stack>
      <DialogButtons onCancel={onCancel} loading={loading} action={{ label: submitLabel, type: 'submit', disabled: submitDisabled }} />
    </form>
  );
}

export interface FormModalProps extends Omit<FormBodyProps, 'onCancel'> {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Wider for forms with rows of inputs (Mantine's modal sizes). */
  size?: string;
}

export function FormModal({ opened, onClose, title, size, ...form }: FormModalProps) {
  return (
    // The close button's icon has no text: name it for assistive tech.
    <Modal opened={opened} onClose={onClose} title={title} centered size={size} closeButtonProps={{ 'aria-label': 'Close' }}>
      <FormBody onCancel={onClose} {...form} />
    </Modal>
  );
}
