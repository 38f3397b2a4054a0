// Home: a greeting, New Job and the user's jobs.
import { Group, Stack, Text, Title } from '@mantine/core';
import { JobsTable } from './JobsTable';
import { NewJobButton } from './NewJobButton';
import { useJobs } from './useJobs';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { usePageParam } from '../../hooks/usePageParam';

export function HomePage({ page }: { page: number }) {
  const { data: user } = useCurrentUser();
  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>Hi, {user?.full_name || user?.email}</Title>
        <Text>Welcome back, nice to see you again!</Text>
      </div>
      <HomeJobs page={page} />
    </Stack>
  );
}

/** New Job and the user's jobs, newest first (docs/requirements.md, Home). */
function HomeJobs({ page: current }: { page: number }) {
  const [page, setPage] = usePageParam(current);
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
