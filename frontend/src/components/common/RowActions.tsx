// The "…" menu at the end of a table row: Edit and Delete for one record.
import { ActionIcon, Menu } from '@mantine/core';
import { IconDotsVertical, IconPencil, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface RowActionsProps {
  /** e.g. 'Item' → menu entries 'Edit Item', 'Delete Item'. */
  noun: string;
  onEdit: () => void;
  onDelete: () => void;
  disabled?: boolean;
  /** Why this record cannot be deleted (the Delete entry is then disabled, saying so); unset: it can. */
  deleteRefused?: string;
  /** More entries (Menu.Item) after Edit, for actions only this record has. */
  extraItems?: ReactNode;
}

export function RowActions({ noun, onEdit, onDelete, disabled = false, deleteRefused, extraItems }: RowActionsProps) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label="Actions" disabled={disabled}>
          <IconDotsVertical size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={14} />} onClick={onEdit}>
          Edit {noun}
        </Menu.Item>
        {extraItems}
        <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={onDelete} disabled={!!deleteRefused} title={deleteRefused}>
          Delete {noun}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
