// The cells of an upload that could not be used: row, value as written, and why.
import { Table, Text } from '@mantine/core';
import type { Rejection } from '../../client/types.gen';

export interface RejectionsTableProps {
  rejections: Rejection[];
  truncated: boolean;
  total: number;
  /** What a position is called: a spreadsheet's row, or a pasted list's line. */
  rowLabel?: string;
  label?: string;
}

export function RejectionsTable({ rejections, truncated, total, rowLabel = 'Row', label = 'Rejected cells' }: RejectionsTableProps) {
  return (
    <>
      <Table.ScrollContainer minWidth={360} mah={240}>
        <Table striped withTableBorder verticalSpacing={4} fz="xs" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{rowLabel}</Table.Th>
              <Table.Th>Value</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rejections.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one cell can be rejected twice; the server's order is the identity
              <Table.Tr key={i}>
                <Table.Td>{r.sheet ? `${r.sheet}!${r.row_number}` : r.row_number}</Table.Td>
                <Table.Td ff="monospace">{r.raw_value}</Table.Td>
                <Table.Td>{r.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {truncated && (
        <Text size="xs" c="dimmed">
          Showing the first {rejections.length} of {total} rejected cells; download the CSV for all of them.
        </Text>
      )}
    </>
  );
}
