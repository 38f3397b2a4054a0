// The buttons under every dialog: Cancel on the left of the dialog's own action, Cancel disabled while it runs.
import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export function DialogButtons({ onCancel, loading, children }: { onCancel: () => void; loading: boolean; children: ReactNode }) {
  return (
    <Group justify="flex-end" mt="lg">
      <Button variant="default" onClick={onCancel} disabled={loading}>
        Cancel
      </Button>
      {children}
    </Group>
  );
}
