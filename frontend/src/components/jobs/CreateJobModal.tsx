// Create Job (spec §2, §5): a name (default: now as ISO), a spreadsheet and the sources to ask.
import { FORM_MODE } from '../../lib/form-mode';
import { MARKETPLACE_LIST, byMarketplace, type MarketplaceId } from '@app/domain/marketplaces';
import { Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { uploadJobFile } from '../../client/sdk.gen';
import { useUploadJob } from '../../hooks/useUploadJob';
import { VALIDATION } from '../../lib/messages';
import { FileField } from '../uploads/FileField';
import { UploadDialog } from '../uploads/UploadDialog';
import { must } from '@app/domain/must';

type Values = { name: string; file: File | null } & Record<MarketplaceId, boolean>;

const blank = (): Values => ({ name: new Date().toISOString(), file: null, ...byMarketplace(() => false) });

export function CreateJobModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const form = useForm<Values>({ mode: FORM_MODE, defaultValues: blank() });
  const upload = useUploadJob(async ({ file, name, ...sources }: Values) => {
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
    }
  }, [opened, reset, resetUpload]);

  const anySource = form.watch(MARKETPLACE_LIST.map((m) => m.id)).some(Boolean);

  return (
    <UploadDialog
      opened={opened}
      onClose={onClose}
      title="Create Job"
      onSubmit={form.handleSubmit((v) => upload.mutate(v))}
      submitDisabled={!anySource}
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
      <FileField control={form.control} name="file" />
      <Stack gap={6} role="group" aria-labelledby="create-job-sources">
        <Text id="create-job-sources" size="sm" fw={500}>
          Sources
        </Text>
        {MARKETPLACE_LIST.map((m) => (
          <Checkbox key={m.id} label={m.label} {...form.register(m.id)} />
        ))}
      </Stack>
    </UploadDialog>
  );
}
