// Every rejected cell of a job as a CSV file.
import { downloadJobRejections } from '../../client/sdk.gen';
import { CsvFileButton } from '../common/CsvFileButton';

async function fetchRejections(jobId: number) {
  const { data, response } = await downloadJobRejections({ path: { id: jobId }, parseAs: 'blob' });
  return { blob: data, disposition: response.headers.get('content-disposition') };
}

/** `compact`: a small subtle button for a table cell, labelled with the number of rejected cells. */
export function DownloadRejectionsButton({ jobId, compact }: { jobId: number; compact?: { cellsRejected: number } }) {
  const common = { fetchCsv: () => fetchRejections(jobId), fallbackName: () => `job_${jobId}_rejected_cells.csv`, toastOnError: true };
  if (compact) {
    return (
      <CsvFileButton
        {...common}
        variant="subtle"
        color="red"
        size="compact-xs"
        px={0}
        iconSize={12}
        title="Download the cells of this file that could not be used (CSV)"
        label={`${compact.cellsRejected} rejected`}
      />
    );
  }
  return <CsvFileButton {...common} variant="light" size="xs" iconSize={14} label="Download rejected cells (CSV)" />;
}
