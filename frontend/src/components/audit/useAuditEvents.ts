// One page of the audit trail (superusers only), filtered and sorted like the other lists.
import { PAGE_SIZE } from '@app/domain/jobs';
import { listAuditEventsOptions } from '../../client/@tanstack/react-query.gen';
import { downloadAuditEventsCsv } from '../../client/sdk.gen';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import type { Filter } from '../../lib/filters';
import type { SortState } from '../../lib/sort';

export function useAuditEvents({ page, filters, sort }: { page: number; filters: Filter[]; sort: SortState }) {
  return usePagedQuery({
    pageQuery: ({ skip, limit }) => listAuditEventsOptions({ query: { skip, limit, ...sort }, body: { filters } }),
    page,
    pageSize: PAGE_SIZE.audit,
  });
}

/** The filtered, sorted events as CSV, with the server's file name. */
export async function fetchAuditCsv(filters: Filter[], sort: SortState) {
  const { data, response } = await downloadAuditEventsCsv({ body: { filters, ...sort }, parseAs: 'blob' });
  return { blob: data, disposition: response.headers.get('content-disposition') };
}
