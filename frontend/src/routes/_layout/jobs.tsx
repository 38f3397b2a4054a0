import { JOB_FIELDS } from '@app/domain/jobs';
import { createFileRoute } from '@tanstack/react-router';
import { JobsPage } from '../../components/jobs/JobsPage';
import { validateTableSearch } from '../../lib/table-search';

export const Route = createFileRoute('/_layout/jobs')({
  validateSearch: validateTableSearch(JOB_FIELDS),
  component: () => <JobsPage search={Route.useSearch()} />,
});
