// A job's own page. `jobs_` keeps it out of the /jobs list's route, so it is a page of its own.
import { COMPARISON_FIELDS } from '@app/domain/comparison';
import { createFileRoute } from '@tanstack/react-router';
import { JobPage } from '../../components/jobpage/JobPage';
import { validateTableSearch } from '../../lib/table-search';

export const Route = createFileRoute('/_layout/jobs_/$id')({
  validateSearch: validateTableSearch(COMPARISON_FIELDS),
  component: () => <JobPage jobId={Number(Route.useParams().id)} search={Route.useSearch()} />,
});
