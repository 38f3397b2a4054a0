// What the server made of an uploaded spreadsheet (or a pasted list): counts, then the rejected cells.
import { Group, Stack, Text } from '@mantine/core';
import type { JobCreated } from '../../client/types.gen';
import { DownloadRejectionsButton } from './DownloadRejectionsButton';
import { IngestCounts, isPastedList } from './IngestCounts';
import { RejectionsTable } from './RejectionsTable';

export function UploadReport({ job }: { job: JobCreated }) {
  const r = job.report;
  if (!r) return <Text size="sm">Job {job.id} was created.</Text>;
  const pasted = isPastedList(job);
  return (
    <Stack gap="sm" data-testid="upload-report">
      <Text size="sm">
        {pasted
          ? `Job ${job.id} “${job.name}” created from the pasted list.`
          : `Job ${job.id} “${job.name}” created from column ${r.column} of sheet ${r.sheet}.`}
      </Text>
      <IngestCounts report={r} pasted={pasted} />
      {r.cells_rejected > 0 && (
        <>
          <RejectionsTable
            rejections={job.rejections}
            truncated={job.rejections_truncated}
            total={r.cells_rejected}
            rowLabel={pasted ? 'Line' : 'Row'}
          />
          <Group>
            <DownloadRejectionsButton jobId={job.id} />
          </Group>
        </>
      )}
    </Stack>
  );
}
