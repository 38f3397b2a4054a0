// 'Upload File for {marketplace}' (docs/requirements.md, Marketplace pages): a spreadsheet becomes a job
// for this source only.
import { FORM_MODE } from '../../lib/form-mode';
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUpload } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useUploadJob } from '../../hooks/useUploadJob';
import { marketplaceApi } from './marketplace-api';
import { FileField } from '../uploads/FileField';
import { UploadDialog } from '../uploads/UploadDialog';
import { must } from '@app/domain/must';

export function UploadFileButton({ marketplace }: { marketplace: MarketplaceInfo }) {
  const [opened, modal] = useDisclosure(false);
  const api = useMemo(() => marketplaceApi(marketplace.slug), [marketplace.slug]);
  const form = useForm<{ file: File | null }>({ mode: FORM_MODE, defaultValues: { file: null } });
  const upload = useUploadJob(({ file }: { file: File | null }) => api.uploadFile(must(file, 'the form requires a file')));

  const open = () => {
    form.reset({ file: null });
    upload.reset();
    modal.open();
  };

  return (
    <>
      <Button leftSection={<IconUpload size={16} />} onClick={open}>
        Upload File
      </Button>
      <UploadDialog
        opened={opened}
        onClose={modal.close}
        title={`Upload File for ${marketplace.label}`}
        onSubmit={form.handleSubmit((v) => upload.mutate(v))}
        loading={upload.isPending}
        error={upload.error}
        result={upload.data}
      >
        <FileField control={form.control} name="file" />
      </UploadDialog>
    </>
  );
}
