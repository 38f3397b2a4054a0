// What the server made of an uploaded spreadsheet (or a pasted list): counts, then the rejected cells.
import { PASTED_LIST_FILENAME } from '@app/domain/isbn-list';
import { Group, Stack, Table, Text } from '@mantine/core';
import type { JobCreated } from '../../client/types.gen';
import { DownloadRejectionsButton } from './DownloadRejectionsButton';
import { RejectionsTable } from './RejectionsTable';

export function UploadReport({ job }: { job: JobCreated }) {
  const r = job.report;
  if (!r) return <Text size="sm">Job {job.id} was created.</Text>;
  // A pasted list has lines and codes where a spreadsheet has rows and cells.
  const pasted = job.input_filename === PASTED_LIST_FILENAME;
  const counts: [string, number][] = [
    [pasted ? 'Lines read' : 'Rows read', r.rows_read],
    ['ISBNs accepted', r.isbns_accepted],
    ['Duplicates merged', r.duplicates_merged],
    [pasted ? 'Codes rejected' : 'Cells rejected', r.cells_rejected],
  ];
  return (
    <Stack gap="sm" data-testid="upload-report">
      <Text size="sm">
        {pasted
          ? `Job ${job.id} “${job.name}” created from the pasted list.`
          : `Job ${job.id} “${job.name}” created from column ${r.column} of sheet ${r.sheet}.`}
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
