// What the server made of an upload, as counts: on the upload dialog and on the job's page.
import { BOOK_PAGE_FILENAME } from '@app/domain/book';
import { PASTED_LIST_FILENAME } from '@app/domain/isbn-list';
import { Table } from '@mantine/core';
import type { IngestReport } from '../../client/types.gen';

/** A pasted list has lines and codes where a spreadsheet has rows and cells. */
export const isPastedList = (job: { input_filename: string }) => job.input_filename === PASTED_LIST_FILENAME;

/** A one-book job made by a book page's Price it now. */
export const isBookPageJob = (job: { input_filename: string }) => job.input_filename === BOOK_PAGE_FILENAME;

export function IngestCounts({ report, pasted }: { report: IngestReport; pasted: boolean }) {
  const counts: [string, number][] = [
    [pasted ? 'Lines read' : 'Rows read', report.rows_read],
    ['ISBNs accepted', report.isbns_accepted],
    ['Duplicates merged', report.duplicates_merged],
    [pasted ? 'Codes rejected' : 'Cells rejected', report.cells_rejected],
  ];
  // Past the server's limit, rejected values are counted but not kept for the download.
  if (report.rejections_not_kept) counts.push(['Rejected values not kept (over the limit)', report.rejections_not_kept]);
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
