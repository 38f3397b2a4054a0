// Columns of the jobs table (docs/requirements.md, Jobs): the job's own fields, then one progress cell per
// source.
import { JOB_FIELDS } from '@app/domain/jobs';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { JobPublic } from '../../client/types.gen';
import { formatDateTime } from '../../lib/format';
import { ariaSort, type SortState } from '../../lib/sort';
import type { DataColumn } from '../common/DataTable';
import { SortableHeader } from '../common/SortableHeader';
import { DownloadRejectionsButton } from '../uploads/DownloadRejectionsButton';
import { JobLink } from './JobLink';
import { JobActions } from './JobActions';
import { SourceProgressCell } from './SourceProgressCell';
import { must } from '@app/domain/must';

const label = (name: string) =>
  must(
    JOB_FIELDS.find((f) => f.name === name),
    `job field ${name}`,
  ).label;

/** With `sorting`, the job's own columns sort on header click. */
export function jobColumns(sorting?: { sort: SortState; onSort: (column: string) => void }): DataColumn<JobPublic>[] {
  const own = (
    name: 'id' | 'name' | 'input_filename' | 'created_at' | 'updated_at',
    render: (j: JobPublic) => ReactNode,
  ): DataColumn<JobPublic> => ({
    key: name,
    header: sorting ? <SortableHeader label={label(name)} column={name} {...sorting} /> : label(name),
    sort: sorting ? ariaSort(sorting.sort, name) : undefined,
    render,
  });
  return [
    own('id', (j) => (
      <Text size="sm" ff="monospace">
        {j.id}
      </Text>
    )),
    own('name', (j) => (
      // Wraps under the name when the column is narrow (a table of many marketplaces), never squeezed to a dot.
      <Group gap="xs">
        <JobLink id={j.id}>{j.name}</JobLink>
        {j.cancelled_at && (
          <Badge
            size="sm"
            variant="dot"
            color="orange"
            tt="none"
            style={{ flexShrink: 0 }}
            title={`Cancelled ${formatDateTime(j.cancelled_at)}`}
          >
            Cancelled
          </Badge>
        )}
      </Group>
    )),
    own('input_filename', (j) => (
      <Stack gap={2} align="flex-start">
        <span>{j.input_filename}</span>
        {/* The rejected cells stay downloadable after the upload dialog is gone. */}
        {j.report && j.report.cells_rejected > 0 && (
          <DownloadRejectionsButton jobId={j.id} compact={{ cellsRejected: j.report.cells_rejected }} />
        )}
      </Stack>
    )),
    ...MARKETPLACE_LIST.map(
      (m): DataColumn<JobPublic> => ({
        key: m.id,
        header: m.label,
        render: (j) => <SourceProgressCell jobId={j.id} marketplace={m} progress={j[m.id]} />,
      }),
    ),
    own('created_at', (j) => formatDateTime(j.created_at)),
    own('updated_at', (j) => formatDateTime(j.updated_at)),
    // Not in the spec's column list: job control (docs/features/jobs.md, "Job control").
    { key: 'actions', header: 'Actions', render: (j) => <JobActions job={j} /> },
  ];
}
