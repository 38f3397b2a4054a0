// The shape of both upload dialogs: a form until the upload succeeds, then the ingest report.
// A failed upload keeps the form open with the server's reason (the requirements
// only log a failed upload; the reason is shown too, so the user knows what to fix).
import { Alert, Button, Group, Modal } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { FormEventHandler, ReactNode } from 'react';
import type { JobCreated } from '../../client/types.gen';
import { errorToastMessage } from '../../lib/errors';
import { FormBody } from '../common/FormModal';
import { UploadReport } from './UploadReport';

export interface UploadDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitDisabled?: boolean;
  submitLabel?: string;
  loading: boolean;
  error: unknown;
  result: JobCreated | undefined;
  children: ReactNode;
}

export function UploadDialog({
  opened,
  onClose,
  title,
  onSubmit,
  submitDisabled,
  submitLabel = 'Upload',
  loading,
  error,
  result,
  children,
}: UploadDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size={result ? 'lg' : 'md'} closeOnClickOutside={!loading}>
      {result ? (
        <>
          <UploadReport job={result} />
          <Group justify="flex-end" mt="lg">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </>
      ) : (
        <FormBody onCancel={onClose} onSubmit={onSubmit} submitLabel={submitLabel} submitDisabled={submitDisabled} loading={loading}>
          {children}
          {error != null && (
            <Alert color="red" icon={<IconAlertCircle size={16} />} title="Upload failed" role="alert">
              {errorToastMessage(error)}
            </Alert>
          )}
        </FormBody>
      )}
    </Modal>
  );
}
