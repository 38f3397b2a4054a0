// Create Job (docs/requirements.md, Create Job dialog): a name (default: now as ISO), the ISBNs and the
// sources to ask. The ISBNs come from a spreadsheet (the spec's mode, the default) or, beyond the spec, are
// pasted or scanned into a list; both give the same clean-up and report.
import { FORM_MODE } from '../../lib/form-mode';
import { MARKETPLACE_LIST, byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';
import { Checkbox, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { createJobFromIsbns, uploadJobFile } from '../../client/sdk.gen';
import { useUploadJob } from '../../hooks/useUploadJob';
import { VALIDATION } from '../../lib/messages';
import { FileField } from '../uploads/FileField';
import { PastedIsbnsField } from '../uploads/PastedIsbnsField';
import { UploadDialog } from '../uploads/UploadDialog';
import { must } from '@app/domain/must';

type Values = { name: string; file: File | null; isbns: string } & Record<MarketplaceId, boolean>;
type Source = 'file' | 'paste';

const SOURCES: { value: Source; label: string }[] = [
  { value: 'file', label: 'Upload file' },
  { value: 'paste', label: 'Paste or scan ISBNs' },
];

const blank = (): Values => ({ name: new Date().toISOString(), file: null, isbns: '', ...byMarketplace(() => false) });

export function CreateJobModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const form = useForm<Values>({ mode: FORM_MODE, defaultValues: blank() });
  // Only the shown field is validated: react-hook-form skips a field that is not mounted.
  const [source, setSource] = useState<Source>('file');
  const upload = useUploadJob(async ({ source, values: { file, isbns, name, ...sources } }: { source: Source; values: Values }) => {
    if (source === 'paste') return (await createJobFromIsbns({ body: { name, ...sources, isbns } })).data;
    const config = JSON.stringify({ name, ...sources });
    return (await uploadJobFile({ body: { file: must(file, 'the form requires a file'), config } })).data;
  });

  // Each opening starts over, named after the moment it opened.
  const { reset } = form;
  const resetUpload = upload.reset;
  useEffect(() => {
    if (opened) {
      reset(blank());
      resetUpload();
      setSource('file');
    }
  }, [opened, reset, resetUpload]);

  const anySource = form.watch(MARKETPLACE_LIST.map((m) => m.id)).some(Boolean);

  return (
    <UploadDialog
      opened={opened}
      onClose={onClose}
      title="Create Job"
      onSubmit={form.handleSubmit((values) => upload.mutate({ source, values }))}
      submitDisabled={!anySource}
      submitLabel={source === 'paste' ? 'Create Job' : 'Upload'}
      loading={upload.isPending}
      error={upload.error}
      result={upload.data}
    >
      <TextInput
        label="Job Name"
        placeholder="Job Name"
        withAsterisk
        error={form.formState.errors.name?.message}
        {...form.register('name', { required: VALIDATION.jobNameRequired })}
      />
      <SegmentedControl
        aria-label="ISBNs from"
        data={SOURCES}
        value={source}
        onChange={(value) => {
          setSource(value as Source);
          resetUpload();
        }}
      />
      {source === 'file' ? <FileField control={form.control} name="file" /> : <PastedIsbnsField control={form.control} name="isbns" />}
      <Stack gap={6} role="group" aria-labelledby="create-job-sources">
        <Text id="create-job-sources" size="sm" fw="var(--mantine-font-weight-medium)">
          Sources
        </Text>
        {MARKETPLACE_LIST.map((m) => (
          <Checkbox key={m.id} label={m.label} {...form.register(m.id)} />
        ))}
      </Stack>
    </UploadDialog>
  );
}
