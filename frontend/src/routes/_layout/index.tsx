import { Stack, Text, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { useCurrentUser } from '../../hooks/useCurrentUser';
import { validatePageSearch } from '../../lib/paging';

export const Route = createFileRoute('/_layout/')({
  validateSearch: validatePageSearch,
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
      {/*
        JOBS: the 'New Job' button (Create Job modal) and the jobs table (page = Route.useSearch().page,
        PAGE_SIZE.jobs, usePagedQuery + DataTable + PaginationFooter) go here — a later task.
      */}
    </Stack>
  );
}
