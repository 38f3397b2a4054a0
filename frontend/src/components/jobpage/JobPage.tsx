// A job's own page (/jobs/$id), results first: its run per marketplace (folded to one line once
// done), what it decided, the comparison of its ISBNs across marketplaces, judging, the cost per
// book, its re-pricing schedule, your watches of it, its ingest report and the spread of its prices,
// kept up to date while lookups run.
// An unknown job, or another user's, reads as not found.
import { Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import type { JobPublic } from '../../client/types.gen';
import { errorStatus } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import type { TableSearch } from '../../lib/table-search';
import { NotFound } from '../common/NotFound';
import { PageTitle } from '../common/PageTitle';
import { JobActions } from '../jobs/JobActions';
import { DownloadRejectionsButton } from '../uploads/DownloadRejectionsButton';
import { WatchesSection } from '../watches/WatchesSection';
import { IngestCounts, isBookPageJob, isPastedList } from '../uploads/IngestCounts';
import { ComparisonSection } from './ComparisonSection';
import { JobCost } from './JobCost';
import { JobSchedule } from './JobSchedule';
import { DecisionsCard } from './DecisionsCard';
import { PriceChart } from './PriceChart';
import { ProgressSection } from './ProgressSection';
import { ResultsSummary } from './ResultsSummary';
import { isLive, useJob, useJobSummary, useRefreshWhenDone } from './useJobPage';

export function JobPage({ jobId, search }: { jobId: number; search: TableSearch }) {
  const job = useJob(jobId);
  const status = errorStatus(job.error);
  if (!Number.isSafeInteger(jobId) || jobId < 1 || status === 404 || status === 422) return <NotFound />;
  if (!job.data) return <Skeleton h={400} />;
  return <JobPageBody job={job.data} search={search} />;
}

function JobPageBody({ job, search }: { job: JobPublic; search: TableSearch }) {
  const navigate = useNavigate();
  const live = isLive(job);
  const summary = useJobSummary(job.id, live);
  useRefreshWhenDone(job.id, live);
  return (
    <Stack gap="xl">
      <Stack gap={4}>
        <Group justify="space-between" align="flex-start" data-testid="job-header">
          <PageTitle>{job.name}</PageTitle>
          <JobActions job={job} onDeleted={() => void navigate({ to: '/jobs', search: { page: 1 } })} />
        </Group>
        <Text size="sm" c="dimmed">
          Job {job.id} · {job.input_filename} · created {formatDateTime(job.created_at)}
        </Text>
      </Stack>

      <ProgressSection summary={summary.data} live={live} />
      <ResultsSummary job={job} search={search} live={live} />
      <ComparisonSection job={job} search={search} live={live} />
      <DecisionsCard job={job} search={search} live={live} />
      <JobCost job={job} />
      <JobSchedule job={job} />
      <WatchesSection target={{ jobId: job.id }} />

      <Stack gap="sm" component="section" aria-labelledby="report-title" maw={480}>
        <Title order={3} id="report-title">
          Upload
        </Title>
        {job.report ? (
          <>
            <Text size="sm">
              {isPastedList(job)
                ? 'From a pasted list.'
                : isBookPageJob(job)
                  ? "From a book's page."
                  : `Column ${job.report.column} of sheet ${job.report.sheet}.`}
            </Text>
            <IngestCounts report={job.report} pasted={isPastedList(job) || isBookPageJob(job)} />
            {job.report.cells_rejected > 0 && (
              <Group>
                <DownloadRejectionsButton jobId={job.id} />
              </Group>
            )}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            No ingest report was kept for this job.
          </Text>
        )}
      </Stack>

      <PriceChart job={job} live={live} />
    </Stack>
  );
}
