// One filter of the builder: field, operator (by the field's type) and value, with a remove button.
// A field whose values are known (statuses, Best Source, PalletIQ's decision) offers them in a list.
import type { FieldDef } from '@app/domain/fields';
import { knownValues } from '@app/domain/known-values';
import { ActionIcon, Group, NativeSelect, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { operatorOptions, withField, type Filter } from '../../lib/filters';

export interface FilterRowProps {
  /** 1-based, for the controls' names. */
  n: number;
  filter: Filter;
  fields: readonly FieldDef[];
  onChange: (filter: Filter) => void;
  onRemove: () => void;
  /** How the controls are named to assistive tech: `${label} field`… (default `Filter ${n}`). */
  label?: string;
  /** Form control names: `${name}.field`, `${name}.operator`, `${name}.value` (the rule editor's error paths). */
  name?: string;
  /** A message beside each part, e.g. from a 422's loc. */
  errors?: Partial<Record<'field' | 'operator' | 'value', string>>;
}

/**
 * A known-values list: a prompt while nothing is chosen, and a value saved before (a word typed
 * when this was a text box, which "contains" may still match) kept as one of the choices.
 */
export function valueOptions(known: readonly string[], current: string): { value: string; label: string; disabled?: boolean }[] {
  const extra = current !== '' && !known.includes(current) ? [current] : [];
  return [{ value: '', label: 'Choose a value', disabled: true }, ...[...known, ...extra].map((v) => ({ value: v, label: v }))];
}

const INPUT_TYPE = { text: 'text', number: 'number', date: 'date' } as const;

export function FilterRow({ n, filter, fields, onChange, onRemove, label = `Filter ${n}`, name, errors = {} }: FilterRowProps) {
  const def = fields.find((f) => f.name === filter.field);
  const named = (part: string) => (name ? `${name}.${part}` : undefined);
  const known = def ? knownValues(def.name) : undefined;
  return (
    <Group gap="xs" align="flex-start">
      <NativeSelect
        aria-label={`${label} field`}
        name={named('field')}
        error={errors.field}
        data={fields.map((f) => ({ value: f.name, label: f.label }))}
        value={filter.field}
        onChange={(e) => onChange(withField(filter, e.currentTarget.value, fields))}
        w={{ base: '100%', sm: 220 }}
      />
      <NativeSelect
        aria-label={`${label} operator`}
        name={named('operator')}
        error={errors.operator}
        data={operatorOptions(def)}
        value={filter.operator}
        onChange={(e) => onChange({ ...filter, operator: e.currentTarget.value as Filter['operator'] })}
        w={{ base: '100%', sm: 170 }}
      />
      {known ? (
        <NativeSelect
          aria-label={`${label} value`}
          name={named('value')}
          error={errors.value}
          data={valueOptions(known, filter.value)}
          value={filter.value}
          onChange={(e) => onChange({ ...filter, value: e.currentTarget.value })}
          w={{ base: '100%', sm: 220 }}
        />
      ) : (
        <TextInput
          aria-label={`${label} value`}
          name={named('value')}
          error={errors.value}
          placeholder={def?.type === 'date' ? 'YYYY-MM-DD' : 'Value'}
          type={INPUT_TYPE[def?.type ?? 'text']}
          step={def?.type === 'number' ? 'any' : undefined}
          value={filter.value}
          onChange={(e) => onChange({ ...filter, value: e.currentTarget.value })}
          w={{ base: '100%', sm: 220 }}
        />
      )}
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={`Remove ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
        onClick={onRemove}
      >
        <IconX size={16} />
      </ActionIcon>
    </Group>
  );
}
