// The Create Job dialog's "Paste or scan ISBNs" field: a list typed by a barcode scanner (each code
// followed by Enter, which adds a line here and never submits the form) or pasted from a
// spreadsheet, an email or a web page. Under it, a live count read with the API's own rules, and
// the codes that are not ISBNs with their reasons on demand.
import { pastedListProblem, type PastedList } from '@app/domain/isbn-list';
import { Button, Collapse, Group, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { pastedListSummary, readPastedListOnce } from './pasted-list';
import { RejectionsTable } from './RejectionsTable';

/** Codes listed under the field; the report after creating the job has them all (and the CSV). */
const REASONS_SHOWN = 100;

export function PastedIsbnsField<T extends FieldValues>({ control, name }: { control: Control<T>; name: Path<T> }) {
  return (
    <Controller
      control={control}
      name={name}
      rules={{ validate: (text: string) => pastedListProblem(readPastedListOnce(text)) ?? true }}
      render={({ field, fieldState }) => (
        <Stack gap={4}>
          <Textarea
            label="ISBNs"
            description="One per line: scan them with a barcode scanner, or paste them from a spreadsheet or an email."
            withAsterisk
            // Focused as it appears (the user just chose this mode), so a scanner's typing lands here.
            autoFocus
            autosize
            minRows={6}
            maxRows={14}
            spellCheck={false}
            autoComplete="off"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
            error={fieldState.error?.message}
          />
          <PastedListCount list={readPastedListOnce(field.value)} />
        </Stack>
      )}
    />
  );
}

function PastedListCount({ list }: { list: PastedList }) {
  const [reasonsShown, reasons] = useDisclosure(false);
  const rejected = list.rejections;
  return (
    <>
      <Group gap="xs" mih={22}>
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="pasted-count">
          {pastedListSummary(list)}
        </Text>
        {rejected.length > 0 && (
          <Button variant="subtle" size="compact-xs" onClick={reasons.toggle} aria-expanded={reasonsShown}>
            {reasonsShown ? 'Hide reasons' : 'Show reasons'}
          </Button>
        )}
      </Group>
      <Collapse expanded={reasonsShown && rejected.length > 0}>
        <RejectionsTable
          rowLabel="Line"
          label="Codes not recognised"
          rejections={rejected
            .slice(0, REASONS_SHOWN)
            .map((r) => ({ sheet: null, row_number: r.line, raw_value: r.raw, reason: r.reason }))}
          truncated={false}
          total={rejected.length}
        />
        {rejected.length > REASONS_SHOWN && (
          <Text size="xs" c="dimmed">
            Showing the first {REASONS_SHOWN} of {rejected.length}.
          </Text>
        )}
      </Collapse>
    </>
  );
}
