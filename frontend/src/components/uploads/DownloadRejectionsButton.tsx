// Every rejected cell of a job as a CSV file.
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { downloadJobRejections } from '../../client/sdk.gen';
import { filenameFromDisposition, saveFile } from '../../lib/download';

export function DownloadRejectionsButton({ jobId }: { jobId: number }) {
  const download = useMutation({
    mutationFn: async () => {
      const { data, response } = await downloadJobRejections({ path: { id: jobId }, parseAs: 'blob' });
      saveFile(data as unknown as Blob, filenameFromDisposition(response.headers.get('content-disposition')) ?? `job_${jobId}_rejected_cells.csv`);
    },
  });
  return (
    <Button variant="light" size="xs" leftSection={<IconDownload size={14} />} loading={download.isPending} onClick={() => download.mutate()}>
      Download rejected cells (CSV)
    </Button>
  );
}
