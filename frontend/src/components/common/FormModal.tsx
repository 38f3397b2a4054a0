// A modal holding one form with Save / Cancel: the shape of every add and edit dialog.
import { Button, Group, Modal, Stack } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

export interface FormModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel?: string;
  submitDisabled?: boolean;
  loading?: boolean;
  children: ReactNode;
}

export function FormModal({ opened, onClose, title, onSubmit, submitLabel = 'Save', submitDisabled = false, loading = false, children }: FormModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">{children}</Stack>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onClose} disabled={loading}>
            Cancel
          </Button>
          <Button type="submit" disabled={submitDisabled} loading={loading}>
            {submitLabel}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
