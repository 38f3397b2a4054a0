// What the server made of an uploaded spreadsheet: counts, then the rejected cells.
import { Group, Stack, Table, Text } from '@mantine/core';
import type { JobCreated } from '../../client/types.gen';
import { DownloadRejectionsButton } from './DownloadRejectionsButton';
import { RejectionsTable } from './RejectionsTable';

export function UploadReport({ job }: { job: JobCreated }) {
  const r = job.report;
  if (!r) return <Text size="sm">Job {job.id} was created.</Text>;
  const counts: [string, number][] = [
    ['Rows read', r.rows_read],
    ['ISBNs accepted', r.isbns_accepted],
    ['Duplicates merged', r.duplicates_merged],
    ['Cells rejected', r.cells_rejected],
  ];
  return (
    <Stack gap="sm" data-testid="upload-report">
      <Text size="sm">
        Job {job.id} “{job.name}” created from column {r.column} of sheet {r.sheet}.
      </Text>
      <Table withTableBorder verticalSpacing={4} aria-label="Ingest report">
        <Table.Tbody>
          {counts.map(([label, n]) => (
            <Table.Tr key={label}>
              <Table.Th w="60%">{label}</Table.Th>
              <Table.Td>{n}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {r.cells_rejected > 0 && (
        <>
          <RejectionsTable rejections={job.rejections} truncated={job.rejections_truncated} total={r.cells_rejected} />
          <Group>
            <DownloadRejectionsButton jobId={job.id} />
          </Group>
        </>
      )}
    </Stack>
  );
}
