// The filter builder of /jobs and the marketplace pages (docs/requirements.md, Tables): rows of field /
// operator / value edited as a draft and applied together. Rows without a value are not applied.
import type { FieldDef } from '@app/domain/fields';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFilter, IconPlus } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { completeFilters, encodeFilters, filterableFields, newFilter, type Filter } from '../../lib/filters';
import { FilterRow } from './FilterRow';

export interface FilterBuilderProps {
  /** The page's field table; only filterable fields are offered. */
  fields: readonly FieldDef[];
  /** The applied filters (from the URL). */
  value: Filter[];
  onApply: (filters: Filter[]) => void;
}

export function FilterBuilder({ fields, value, onApply }: FilterBuilderProps) {
  const options = useMemo(() => filterableFields(fields), [fields]);
  const [draft, setDraft] = useState<Filter[]>(value);
  // The URL changed (Apply, a View link, back button): show what is applied now.
  const applied = encodeFilters(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `value` is a new array on every render; its encoding says when it changed
  useEffect(() => setDraft(value), [applied]);

  const update = (i: number, f: Filter) => setDraft((d) => d.map((x, j) => (j === i ? f : x)));
  const remove = (i: number) => setDraft((d) => d.filter((_, j) => j !== i));

  return (
    <Paper withBorder p="sm" component="section" aria-label="Filters">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onApply(completeFilters(draft));
        }}
      >
        <Stack gap="xs">
          {draft.length === 0 && (
            <Text size="sm" c="dimmed">
              No filters applied.
            </Text>
          )}
          {draft.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are fully controlled and have no id; the index is what update/remove use
            <FilterRow key={i} n={i + 1} filter={f} fields={options} onChange={(next) => update(i, next)} onRemove={() => remove(i)} />
          ))}
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => setDraft((d) => [...d, newFilter(options)])}
            >
              Add filter
            </Button>
            <Button type="submit" size="xs" leftSection={<IconFilter size={14} />}>
              Apply
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
