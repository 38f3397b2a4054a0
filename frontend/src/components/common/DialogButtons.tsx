// The buttons under every dialog: Cancel, then the dialog's own action; Cancel is disabled while the action runs.
import { Button, Group, type ButtonProps } from '@mantine/core';

export interface DialogAction extends Pick<ButtonProps, 'color' | 'disabled'> {
  label: string;
  /** 'submit' for a form's dialog; otherwise `onClick` runs the action. */
  type?: 'submit';
  onClick?: () => void;
}

export function DialogButtons({
  onCancel,
  loading,
  action: { label, ...action },
}: {
  onCancel: () => void;
  loading: boolean;
  action: DialogAction;
}) {
  return (
    <Group justify="flex-end" mt="lg">
      <Button variant="default" onClick={onCancel} disabled={loading}>
        Cancel
      </Button>
      <Button {...action} loading={loading}>
        {label}
      </Button>
    </Group>
  );
}
