// The condition rows of a rule: one filter row (field, operator, value) per condition, the message
// about the list as a whole, and "Add condition". A rule's card and a watch's form both build their
// conditions with it, so a condition reads and is typed the same way wherever it is made.
import type { FieldDef } from '@app/domain/fields';
import { Button, Group, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { newFilter, type Filter } from '../../lib/filters';
import { FilterRow } from '../filters/FilterRow';

export interface ConditionRowsProps {
  conditions: readonly Filter[];
  fields: readonly FieldDef[];
  onChange: (conditions: Filter[]) => void;
  /** How the controls are named to assistive tech: `${label} condition 2 field`… */
  label: string;
  /**
   * The error path the conditions sit under ("rules.0" → "rules.0.conditions.1.value"; "" →
   * "conditions.1.value"): the inputs' names, and the keys `error` is asked for.
   */
  path: string;
  /** The message for an input path (`always`: shown before the input was left, as for the list's own). */
  error: (path: string, always?: boolean) => string | undefined;
}

export function ConditionRows({ conditions, fields, onChange, label, path, error }: ConditionRowsProps) {
  const list = path ? `${path}.conditions` : 'conditions';
  return (
    <>
      {conditions.map((c, j) => {
        const at = `${list}.${j}`;
        return (
          <FilterRow
            // biome-ignore lint/suspicious/noArrayIndexKey: conditions are fully controlled and have no id
            key={j}
            n={j + 1}
            label={`${label} condition ${j + 1}`}
            name={at}
            filter={c}
            fields={fields}
            errors={{ field: error(`${at}.field`), operator: error(`${at}.operator`), value: error(`${at}.value`) }}
            onChange={(f) => onChange(conditions.map((x, k) => (k === j ? f : x)))}
            onRemove={() => onChange(conditions.filter((_, k) => k !== j))}
          />
        );
      })}
      {error(list, true) && (
        <Text size="sm" c="red" role="alert">
          {error(list, true)}
        </Text>
      )}
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...conditions, newFilter(fields)])}
        >
          Add condition
        </Button>
      </Group>
    </>
  );
}
