// The comparison CSV through the generated client, as a Blob and the server's file name.
import { downloadJobComparisonCsv } from '../../client/sdk.gen';
import type { Filter } from '../../lib/filters';
import type { SortState } from '../../lib/sort';

export async function jobDownloadComparisonCsv(id: number, { filters, sort_by, sort_direction }: SortState & { filters: Filter[] }) {
  const { data, response } = await downloadJobComparisonCsv({ path: { id }, body: { filters, sort_by, sort_direction }, parseAs: 'blob' });
  return { blob: data, disposition: response.headers.get('content-disposition') };
}
