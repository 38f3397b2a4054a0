// A controlled confirmation modal; stays open with a loading button while the action runs.
import { Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DialogButtons } from './DialogButtons';

export interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  loading?: boolean;
}

export function ConfirmDialog({
  opened,
  onClose,
  onConfirm,
  title,
  message,
  confirmLabel = 'Delete',
  loading = false,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      {typeof message === 'string' ? <Text size="sm">{message}</Text> : message}
      <DialogButtons onCancel={onClose} loading={loading} action={{ label: confirmLabel, color: 'red', onClick: onConfirm }} />
    </Modal>
  );
}
