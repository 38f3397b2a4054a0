// What the server made of an upload, as counts: on the upload dialog and on the job's page.
import { Table } from '@mantine/core';
import type { IngestReport } from '../../client/types.gen';

export function IngestCounts({ report }: { report: IngestReport }) {
  const counts: [string, number][] = [
    ['Rows read', report.rows_read],
    ['ISBNs accepted', report.isbns_accepted],
    ['Duplicates merged', report.duplicates_merged],
    ['Cells rejected', report.cells_rejected],
  ];
  return (
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
  );
}
