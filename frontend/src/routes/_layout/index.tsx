import { Group, Stack, Text, Title } from '@mantine/core';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { JobsTable } from '../../components/jobs/JobsTable';
import { NewJobButton } from '../../components/jobs/NewJobButton';
import { useJobs } from '../../components/jobs/useJobs';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { usePageParam } from '../../hooks/usePageParam';
import { validatePageSearch } from '../../lib/paging';

export const Route = createFileRoute('/_layout/')({
  validateSearch: validatePageSearch,
  // Page 1 is the default: logging in or following a link to / stays on / (no ?page=1).
  search: { middlewares: [stripSearchParams({ page: 1 })] },
  component: Home,
});

function Home() {
  const { data: user } = useCurrentUser();
  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>Hi, {user?.full_name || user?.email}</Title>
        <Text>Welcome back, nice to see you again!</Text>
      </div>
      <HomeJobs />
    </Stack>
  );
}

/** New Job and the user's jobs, newest first (docs/requirements.md, Home). */
function HomeJobs() {
  const [page, setPage] = usePageParam(Route.useSearch().page);
  const jobs = useJobs({ page });
  return (
    <Stack gap="sm">
      <Group>
        <NewJobButton />
      </Group>
      <JobsTable jobs={jobs} page={page} onChangePage={setPage} />
    </Stack>
  );
}
