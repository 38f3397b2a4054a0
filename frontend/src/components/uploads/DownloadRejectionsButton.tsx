// Every rejected cell of a job as a CSV file.
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { downloadJobRejections } from '../../client/sdk.gen';
import { filenameFromDisposition, saveFile } from '../../lib/download';

/** `compact`: a small subtle button for a table cell, labelled with the number of rejected cells. */
export function DownloadRejectionsButton({ jobId, compact }: { jobId: number; compact?: { cellsRejected: number } }) {
  const download = useMutation({
    mutationFn: async () => {
      const { data, response } = await downloadJobRejections({ path: { id: jobId }, parseAs: 'blob' });
      saveFile(data, filenameFromDisposition(response.headers.get('content-disposition')) ?? `job_${jobId}_rejected_cells.csv`);
    },
  });
  if (compact) {
    return (
      <Button
        variant="subtle"
        color="red"
        size="compact-xs"
        px={0}
        leftSection={<IconDownload size={12} />}
        loading={download.isPending}
        onClick={() => download.mutate()}
        title="Download the cells of this file that could not be used (CSV)"
      >
        {compact.cellsRejected} rejected
      </Button>
    );
  }
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconDownload size={14} />}
      loading={download.isPending}
      onClick={() => download.mutate()}
    >
      Download rejected cells (CSV)
    </Button>
  );
}
