// The "Columns" button of a marketplace page: tick which fields are columns and order them with
// up/down buttons (keyboard-operable, no dragging needed), or go back to the spec's columns.
import type { FieldDef } from '@app/domain/fields';
import { ActionIcon, Box, Button, Checkbox, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconColumns3, IconRestore, IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ALWAYS_SHOWN, hiddenFields, moveColumn, shownFields, toggleColumn, type ColumnChoice } from '../../lib/column-choice';
import classes from './ColumnChooser.module.css';

/** Past this many fields (Biblio's ~70) the chooser offers a search box. */
const SEARCH_FROM = 20;

export interface ColumnChooserProps {
  fields: readonly FieldDef[];
  choice: ColumnChoice;
  onChange: (choice: ColumnChoice) => void;
  isDefault: boolean;
  onReset: () => void;
}

export function ColumnChooser({ fields, choice, onChange, isDefault, onReset }: ColumnChooserProps) {
  const [query, setQuery] = useState('');
  const matches = (f: FieldDef) => f.label.toLowerCase().includes(query.trim().toLowerCase());
  const shown = shownFields(choice, fields);
  const hidden = hiddenFields(choice, fields).filter(matches);
  const focusAfterMove = useMoveFocus(choice);

  const move = (name: string, by: -1 | 1) => {
    focusAfterMove(name, by);
    onChange(moveColumn(choice, name, by));
  };

  return (
    <Popover position="bottom-start" width={340} shadow="md" trapFocus returnFocus onClose={() => setQuery('')}>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns3 size={16} />}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw="calc(100vw - 1rem)" p="sm">
        <Stack gap="xs">
          {/* Reset sits at the top: on a short screen the end of a long list may be out of view. */}
          <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
            <Text size="xs" c="dimmed">
              Tick the columns to show. The top of the list is the left of the table.
            </Text>
            <Button
              variant="subtle"
              size="compact-xs"
              leftSection={<IconRestore size={14} />}
              disabled={isDefault}
              onClick={onReset}
              style={{ flexShrink: 0 }}
            >
              Reset to default
            </Button>
          </Group>
          {fields.length > SEARCH_FROM && (
            <TextInput
              size="xs"
              aria-label="Find a column"
              placeholder="Find a column"
              leftSection={<IconSearch size={14} />}
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
            />
          )}
          <Box mah="min(60vh, 28rem)" style={{ overflowY: 'auto' }} data-column-list>
            <Stack gap={4} role="group" aria-label="Shown columns">
              {shown.filter(matches).map((f) => {
                const i = choice.indexOf(f.name);
                return (
                  <Group key={f.name} gap={2} wrap="nowrap" justify="space-between">
                    <Checkbox
                      size="xs"
                      label={f.label}
                      checked
                      disabled={f.name === ALWAYS_SHOWN}
                      title={f.name === ALWAYS_SHOWN ? 'Always shown' : undefined}
                      onChange={() => onChange(toggleColumn(choice, f.name))}
                    />
                    <Group gap={0} wrap="nowrap">
                      <MoveButton field={f} by={-1} disabled={i === 0} onMove={move} />
                      <MoveButton field={f} by={1} disabled={i === choice.length - 1} onMove={move} />
                    </Group>
                  </Group>
                );
              })}
            </Stack>
            {hidden.length > 0 && (
              <Stack gap={4} mt="sm" role="group" aria-label="More columns">
                <Text size="xs" fw={700} c="dimmed">
                  More columns
                </Text>
                {hidden.map((f) => (
                  <Checkbox
                    key={f.name}
                    size="xs"
                    label={f.label}
                    checked={false}
                    onChange={() => onChange(toggleColumn(choice, f.name))}
                  />
                ))}
              </Stack>
            )}
          </Box>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * Keeps the keyboard on the arrow just pressed after the row moved (React may re-insert the row's
 * element, which drops focus); at the top or bottom, where that arrow turns disabled, the other one.
 */
function useMoveFocus(choice: ColumnChoice) {
  const pending = useRef<{ name: string; by: -1 | 1 } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each change of choice, the re-render that moved the row.
  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    pending.current = null;
    const button = (by: number) => document.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(`${p.name}:${by}`)}"]`);
    const target = button(p.by);
    (target && !target.disabled ? target : button(-p.by))?.focus();
  }, [choice]);
  return (name: string, by: -1 | 1) => {
    pending.current = { name, by };
  };
}

/** Moves a shown column one place up (-1) or down (1); data-move lets focus find it again after the move. */
function MoveButton({
  field,
  by,
  disabled,
  onMove,
}: {
  field: FieldDef;
  by: -1 | 1;
  disabled: boolean;
  onMove: (name: string, by: -1 | 1) => void;
}) {
  const up = by === -1;
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="sm"
      className={classes.move}
      aria-label={`Move ${field.label} ${up ? 'up' : 'down'}`}
      data-move={`${field.name}:${by}`}
      disabled={disabled}
      onClick={() => onMove(field.name, by)}
    >
      {up ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
    </ActionIcon>
  );
}
