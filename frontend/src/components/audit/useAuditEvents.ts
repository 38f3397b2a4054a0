// One page of the audit trail (superusers only), filtered and sorted like the other lists.
import { PAGE_SIZE } from '@app/domain/jobs';
import { downloadAuditEventsCsv, listAuditEvents } from '../../client/sdk.gen';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import type { Filter } from '../../lib/filters';
import type { SortState } from '../../lib/sort';

export function useAuditEvents({ page, filters, sort }: { page: number; filters: Filter[]; sort: SortState }) {
  return usePagedQuery({
    queryKey: ['audit-events', { filters, sort }],
    page,
    pageSize: PAGE_SIZE.audit,
    fetchPage: async ({ skip, limit, signal }) =>
      (await listAuditEvents({ query: { skip, limit, ...sort }, body: { filters }, signal })).data,
  });
}

/** The filtered, sorted events as CSV, with the server's file name. */
export async function fetchAuditCsv(filters: Filter[], sort: SortState) {
  const { data, response } = await downloadAuditEventsCsv({ body: { filters, ...sort }, parseAs: 'blob' });
  return { blob: data, disposition: response.headers.get('content-disposition') };
}
